#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX socket calls `TCPProxy` needs, IPv4 only.
enum TCPSocket {
    /// A failed system call, with its errno.
    struct Failure: Error, CustomStringConvertible {
        let operation: String
        let code: Int32
        var description: String { "\(operation) failed (errno \(code))" }
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    #endif

    /// An IPv4 socket address from a dotted-quad host and a port.
    static func address(host: String, port: Int) throws -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        guard let port = UInt16(exactly: port), inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw Failure(operation: "parsing \(host):\(port)", code: EINVAL)
        }
        address.sin_port = port.bigEndian
        return address
    }

    /// A listening socket on 127.0.0.1 with a port chosen by the kernel.
    static func listenOnLoopback(port: Int = 0) throws -> (socket: Int32, port: Int) {
        let listener = socket(AF_INET, streamType, 0)
        guard listener >= 0 else { throw Failure(operation: "socket", code: errno) }
        var address = try self.address(host: "127.0.0.1", port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 128) == 0 else {
            let code = errno
            closeDescriptor(listener)
            throw Failure(operation: "bind/listen", code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A connected socket to `address`, or nil when the target refuses.
    static func connect(to address: sockaddr_in) -> Int32? {
        let descriptor = socket(AF_INET, streamType, 0)
        guard descriptor >= 0 else { return nil }
        var address = address
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            closeDescriptor(descriptor)
            return nil
        }
        return descriptor
    }

    /// Makes reads and writes on `descriptor` return EAGAIN instead of blocking.
    static func setNonBlocking(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Sends without raising SIGPIPE when the peer is gone.
    static func send(_ descriptor: Int32, _ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { systemSend(descriptor, $0.baseAddress, $0.count, sendFlags) }
    }

    /// Closes a descriptor.
    static func closeDescriptor(_ descriptor: Int32) {
        _ = systemClose(descriptor)
    }

    /// Closes with a reset instead of an orderly FIN.
    static func closeAbortively(_ descriptor: Int32) {
        var linger = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        closeDescriptor(descriptor)
    }
}

// The system calls under names that do not clash with TCPSocket's own methods.
#if canImport(Glibc)
private func systemConnect(_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    Glibc.connect(socket, address, length)
}
private func systemSend(_ socket: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    Glibc.send(socket, bytes, count, flags)
}
private func systemClose(_ descriptor: Int32) -> Int32 { Glibc.close(descriptor) }
#else
private func systemConnect(_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    Darwin.connect(socket, address, length)
}
private func systemSend(_ socket: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    Darwin.send(socket, bytes, count, flags)
}
private func systemClose(_ descriptor: Int32) -> Int32 { Darwin.close(descriptor) }
#endif
