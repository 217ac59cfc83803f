import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// systemd's side of `Type=notify` in a test: a unix datagram socket bound at a fresh path, or
/// at a fresh name in the abstract namespace (`@…`), as `$NOTIFY_SOCKET` names it.
public final class NotifySocket: @unchecked Sendable {
    /// The value for `$NOTIFY_SOCKET`.
    public let name: String
    private let descriptor: Int32

    /// Binds the socket; datagrams wait in it until `receive()`.
    public init(abstract: Bool = false) throws {
        let unique = UUID().uuidString.prefix(12)
        name = abstract ? "@subscriptiond-test-\(unique)" : NSTemporaryDirectory() + "notify-\(unique).sock"
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(name.utf8)
        if abstract { path[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        // An abstract name is exactly its bytes; a path ends at its NUL.
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
        if !name.hasPrefix("@") { unlink(name) }
    }

    /// The next datagram, or nil after five seconds without one.
    public func receive() -> String? { next(flags: 0) }

    /// `receive()` on a thread of its own: waiting must not hold one of the few cooperative
    /// threads the sender needs to run.
    public func receiveAsync() async -> String? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.receive()) }
        }
    }

    /// A datagram already waiting, or nil at once.
    public func receiveNow() -> String? { next(flags: Int32(MSG_DONTWAIT)) }

    private func next(flags: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, flags) }
        return count < 0 ? nil : String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
