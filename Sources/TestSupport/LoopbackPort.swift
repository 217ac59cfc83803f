/// Ports on 127.0.0.1 for child servers that cannot report the port they were given.
public enum LoopbackPort {
    /// A port the kernel just handed out and that is free again (a moment's race, fine for tests).
    public static func free() throws -> Int {
        let (listener, port) = try TCPSocket.listenOnLoopback()
        TCPSocket.closeDescriptor(listener)
        return port
    }

    /// A free port below the kernel's ephemeral range (32768 and up on Linux), for a server
    /// that starts long after its port is chosen (certificates name it): an ephemeral port
    /// can meanwhile become the local port of any client connection, and the server then
    /// cannot bind it.
    public static func freeOutsideEphemeralRange() throws -> Int {
        for _ in 0..<200 {
            let candidate = Int.random(in: 20_000..<32_000)
            if let (listener, port) = try? TCPSocket.listenOnLoopback(port: candidate) {
                TCPSocket.closeDescriptor(listener)
                return port
            }
        }
        return try free()
    }
}
