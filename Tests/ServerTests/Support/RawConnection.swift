import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a loopback port, for tests of what a misbehaving client does:
/// send part of a request, stall, or hold a connection open without a request.
///
/// Reads block, so `readAll()` runs on a thread of its own: a blocked cooperative thread
/// would starve the in-process server the test is talking to (and every other test).
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port` from the loopback address `source` (any of 127.0.0.0/8,
    /// so a test can play several clients); reads give up after `readTimeout`.
    init(port: Int, from source: String = "127.0.0.1", readTimeout: Duration = .seconds(5)) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        var timeout = timeval(
            tv_sec: Int(readTimeout.components.seconds), tv_usec: Int(readTimeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// Ends the connection both ways now (the descriptor is closed at deinit).
    func shutdown() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Opens `count` connections from a thread of its own (a connect can block while the
    /// server's accept queue is full).
    static func open(_ count: Int, port: Int, from source: String = "127.0.0.1") async throws -> [RawConnection] {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try (0..<count).map { _ in try RawConnection(port: port, from: source) } })
            }
        }
    }

    /// Sends text as is.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends every byte (blocking until the peer has taken them or closed), on a thread of its own.
    func sendAll(_ bytes: [UInt8]) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                var offset = 0
                while offset < bytes.count {
                    let sent = bytes[offset...].withUnsafeBytes {
                        Glibc.send(self.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                    if sent <= 0 { break }
                    offset += sent
                }
                continuation.resume()
            }
        }
    }

    /// Reads until the peer closes (FIN or reset) or the read timeout passes; `closed` tells which.
    func readAll() async -> (text: String, closed: Bool) {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.readBlocking()) }
        }
    }

    private func readBlocking() -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[0..<count]
            } else {
                return (String(decoding: received, as: UTF8.self), count == 0 || errno == ECONNRESET)
            }
        }
    }
}
