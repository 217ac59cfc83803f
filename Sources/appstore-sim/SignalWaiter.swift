import Dispatch
import Foundation

/// Waits for SIGINT or SIGTERM, so a served simulator stops cleanly.
enum SignalWaiter {
    static func wait() async {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { continuation.yield(signalNumber) }
            source.resume()
            sources.append(source)
        }
        for await _ in stream { break }
        sources.forEach { $0.cancel() }
    }
}
