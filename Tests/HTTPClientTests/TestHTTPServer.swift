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
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                connections.increment()
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

    /// An `http://` URL for `path` on this server.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Stops listening; open connections close when their clients close them.
    func close() async throws {
        try await channel.close()
    }
}
