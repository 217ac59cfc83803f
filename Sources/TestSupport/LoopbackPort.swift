/// Ports on 127.0.0.1 for child servers that cannot report the port they were given.
public enum LoopbackPort {
    /// A port the kernel just handed out and that is free again (a moment's race, fine for tests).
    public static func free() throws -> Int {
        let (listener, port) = try TCPSocket.listenOnLoopback()
        TCPSocket.closeDescriptor(listener)
        return port
    }
}
