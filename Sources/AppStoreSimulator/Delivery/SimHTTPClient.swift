import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A deliberately small HTTP/1.1 client on SwiftNIO: one connection per request, plain
/// `http://` on loopback. Enough to post notifications and to probe the simulator in tests.
public enum SimHTTPClient {
    /// Sends one request and waits for the whole answer or `timeout`.
    public static func send(
        _ method: String = "POST",
        to url: URL,
        headers: [(String, String)] = [],
        body: [UInt8] = [],
        timeout: Duration = .seconds(10)
    ) async throws -> SimHTTPResponse {
        guard url.scheme == "http", let host = url.host else { throw SimHTTPError.badURL(url.absoluteString) }
        let port = url.port ?? 80
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query { path += "?" + query }
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: path)
        head.headers.add(name: "Host", value: "\(host):\(port)")
        head.headers.add(name: "Content-Length", value: String(body.count))
        head.headers.add(name: "Connection", value: "close")
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        let requestHead = head

        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let promise = loop.makePromise(of: SimHTTPResponse.self)
        let milliseconds = Int64(timeout.components.seconds * 1_000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(.milliseconds(milliseconds))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(
                        OneShotHTTPHandler(head: requestHead, body: body, promise: promise)
                    )
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: host, port: port).get()
        } catch {
            promise.fail(error)
            throw error
        }
        let timer = loop.scheduleTask(in: .milliseconds(milliseconds)) {
            promise.fail(SimHTTPError.timeout)
            channel.close(promise: nil)
        }
        defer { timer.cancel() }
        return try await promise.futureResult.get()
    }
}
