/// A socket listening on 127.0.0.1 that never accepts: the kernel completes each client's
/// handshake and takes its request, and no answer ever comes (a hung server).
public final class SilentListener: Sendable {
    public let port: Int
    private let socket: Int32

    /// Listens on a port the kernel chooses.
    public init() throws {
        (socket, port) = try TCPSocket.listenOnLoopback()
    }

    /// Stops listening; waiting clients see their connection reset.
    public func close() {
        TCPSocket.closeDescriptor(socket)
    }
}
