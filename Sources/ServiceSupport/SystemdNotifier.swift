#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// systemd's readiness protocol (`sd_notify(3)`), without libsystemd: one datagram a state
/// (`READY=1`, `STOPPING=1`, `WATCHDOG=1`) to the unix socket `$NOTIFY_SOCKET` names, in the
/// abstract namespace when the name starts with `@`. Without `$NOTIFY_SOCKET` (not started by
/// a `Type=notify` unit) every call does nothing.
public struct SystemdNotifier: Sendable {
    /// The socket `$NOTIFY_SOCKET` names; nil when it is unset.
    public let socketPath: String?
    /// Half of `$WATCHDOG_USEC`, how often `WATCHDOG=1` is due (`sd_watchdog_enabled(3)`); nil
    /// when the unit has no `WatchdogSec=` or `$WATCHDOG_PID` names another process.
    public let watchdogInterval: Duration?

    /// Reads the protocol's variables from `environment`.
    public init(environment: [String: String], processID: Int32 = getpid()) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let forUs = environment["WATCHDOG_PID"].flatMap(Int32.init).map { $0 == processID } ?? true
        if socketPath != nil, forUs, let microseconds = environment["WATCHDOG_USEC"].flatMap(Int64.init), microseconds > 0 {
            watchdogInterval = .microseconds(microseconds / 2)
        } else {
            watchdogInterval = nil
        }
    }

    /// Sends `state` (newline-separated `KEY=VALUE` assignments). True when it was sent;
    /// false when there is no socket or sending failed (systemd then times the unit out,
    /// which says more than any error here could).
    @discardableResult
    public func notify(_ state: String) -> Bool {
        guard let socketPath, var address = Self.address(socketPath) else { return false }
        #if canImport(Glibc)
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(bitPattern: SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(AF_UNIX, SOCK_DGRAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(state.utf8)
        let length = address.length
        let sent = withUnsafePointer(to: &address.storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bytes.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, 0, socketAddress, length) }
            }
        }
        return sent == bytes.count
    }

    /// The socket address of `path`: `@name` is `name` in the abstract namespace (a leading
    /// NUL, no terminator, the length exact); nil when it does not fit `sun_path`.
    static func address(_ path: String) -> (storage: sockaddr_un, length: socklen_t)? {
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        var storage = sockaddr_un()
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        // A path needs room for its terminating NUL; an abstract name does not have one.
        guard !bytes.isEmpty, bytes.count <= (abstract ? capacity : capacity - 1) else { return nil }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { $0.copyBytes(from: bytes) }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        return (storage, socklen_t(pathOffset + bytes.count + (abstract ? 0 : 1)))
    }
}
