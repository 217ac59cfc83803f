import NIOCore
import NIOHTTP1
import NIOPosix

/// A plain HTTP/1.1 server on 127.0.0.1 and a free port, serving `TestHTTPHandler`'s routes.
final class TestHTTPServer: Sendable {
    /// The port the server listens on.
    let port: Int
    private let channel: any Channel
    private let connections: ConnectionCounter

    private init(channel: any Channel, connections: ConnectionCounter) {
        self.channel = channel
        self.connections = connections
        self.port = channel.localAddress?.port ?? 0
    }

    /// Starts a server; call `close()` when done.
    static func start() async throws -> TestHTTPServer {
        let connections = ConnectionCounter()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.backlog, value: 512)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                connections.opened()
                channel.closeFuture.whenComplete { _ in connections.closed() }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(TestHTTPHandler())
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return TestHTTPServer(channel: channel, connections: connections)
    }

    /// TCP connections accepted so far.
    var connectionCount: Int { connections.value }

    /// TCP connections open right now.
    var openConnections: Int { connections.open }

    /// The most TCP connections that were open at the same time.
    var peakOpenConnections: Int { connections.peakOpen }

    /// Waits, polling, until `condition` holds or `timeout` passes; returns whether it held.
    func eventually(within timeout: Duration = .seconds(10), _ condition: (TestHTTPServer) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(self)
    }

    /// An `http://` URL for `path` on this server.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Stops listening; open connections close when their clients close them.
    func close() async throws {
        try await channel.close()
    }
}
