import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// A Get Retention Message endpoint on 127.0.0.1:0 for performance tests: answers every
/// request as scripted (an empty `RealtimeResponseBody` at once, after a delay, or an HTTP
/// error) and keeps each request body.
final class RealtimeEndpointStub: Sendable {
    /// How requests are answered.
    enum Behaviour: Sendable {
        /// `200 {}` at once.
        case answerEmpty
        /// `200 {}` after the delay.
        case answerAfter(Duration)
        /// The status with a body that is no `RealtimeResponseBody`.
        case status(Int)
    }

    private let state = Mutex<(behaviour: Behaviour, bodies: [[UInt8]])>((.answerEmpty, []))
    private let group = Mutex<ServiceGroup?>(nil)
    private let boundPort = Mutex<Int>(0)

    /// The URL to configure as the realtime URL.
    var url: String { "http://127.0.0.1:\(boundPort.withLock { $0 })/retention/appstore" }
    /// Every request body received, in arrival order.
    var bodies: [[UInt8]] { state.withLock { $0.bodies } }

    /// Sets how the next requests are answered.
    func behave(_ behaviour: Behaviour) {
        state.withLock { $0.behaviour = behaviour }
    }

    /// Listens on a free port; returns once bound.
    func start() async throws {
        let router = Router()
        router.post("/retention/appstore") { request, _ in try await self.answer(request) }
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "test.realtime-endpoint")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        self.group.withLock { $0 = group }
        Task { try await group.run() }
        for await bound in stream {
            boundPort.withLock { $0 = bound }
            break
        }
    }

    /// Stops listening.
    func stop() async {
        await group.withLock { $0 }?.triggerGracefulShutdown()
    }

    private func answer(_ request: Request) async throws -> Response {
        let body = Array(try await request.body.collect(upTo: 1 << 20).readableBytesView)
        let behaviour = state.withLock { state -> Behaviour in
            state.bodies.append(body)
            return state.behaviour
        }
        switch behaviour {
        case .answerEmpty:
            break
        case .answerAfter(let delay):
            try await Task.sleep(for: delay)
        case .status(let code):
            return Response(status: .init(code: code), body: .init(byteBuffer: ByteBuffer(string: "{\"error\":\"trouble\"}")))
        }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
    }
}
