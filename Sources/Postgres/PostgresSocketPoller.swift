#if os(Linux)
import CEpoll
import Glibc
import NIOPosix
import Synchronization

/// Suspends tasks until a database socket is ready, for all of a client's connections on
/// one thread.
///
/// A single statement needs no thread of its own: the task sends it, registers the
/// connection's socket here and suspends; the poller's thread sleeps in `epoll_wait` for
/// every registered socket at once and resumes the task when its socket is ready or its
/// deadline has passed. Registering is one `epoll_ctl` from the task's own thread and does
/// not wake the poller, so a statement costs one thread wake-up (the poller's, when the
/// answer arrives) where a blocking wait on a thread pool costs two.
///
/// Each socket has at most one waiter: a connection is leased to one task at a time.
final class PostgresSocketPoller: Sendable {
    /// Thrown by `wait` when the deadline passed first; the caller abandons the connection.
    struct DeadlinePassed: Error {}

    private struct Waiter {
        let continuation: CheckedContinuation<Int16, any Error>
        let deadline: ContinuousClock.Instant
    }

    private struct State {
        var waiters: [Int32: Waiter] = [:]
        /// When the poller's thread will look at deadlines next, if it is asleep or about
        /// to be: a waiter due earlier must wake it.
        var sleepsUntil: ContinuousClock.Instant?
        var isClosed = false
    }

    private let epoll: Int32
    private let wakeup: Int32
    private let state = Mutex(State())
    private let thread: NIOThreadPool

    /// The longest the thread sleeps without a deadline due (1 s), so it never needs waking
    /// for one.
    private let longestSleep: Duration

    /// Starts the poller's thread; nil when the kernel refuses an epoll or eventfd descriptor
    /// (the caller then waits on its thread pool instead).
    init?(longestSleep: Duration = .seconds(1)) {
        self.longestSleep = longestSleep
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { return nil }
        let wakeup = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        guard wakeup >= 0 else {
            close(epoll)
            return nil
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeup
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, wakeup, &event) == 0 else {
            close(wakeup)
            close(epoll)
            return nil
        }
        self.epoll = epoll
        self.wakeup = wakeup
        self.thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        thread.submit { [self] _ in run() }
    }

    /// Suspends until `socket` is ready for `events` (`POLLIN`, `POLLOUT`) or reports an
    /// error or hang-up, and returns what it reported as `poll` flags. Throws
    /// `DeadlinePassed` once `deadline` has passed, and `.clientClosed` after `shutdown()`.
    func wait(for events: Int16, on socket: Int32, until deadline: ContinuousClock.Instant) async throws -> Int16 {
        try await withCheckedThrowingContinuation { continuation in
            let (failure, mustWake) = state.withLock { state -> ((any Error)?, Bool) in
                guard !state.isClosed else { return (Self.closedError, false) }
                var event = epoll_event()
                event.events = Self.epollEvents(events) | EPOLLONESHOT.rawValue
                event.data.fd = socket
                guard epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) == 0 else {
                    return (PostgresError(.connectionLost, message: "cannot wait for the database socket (errno \(errno))"), false)
                }
                state.waiters[socket] = Waiter(continuation: continuation, deadline: deadline)
                guard let sleepsUntil = state.sleepsUntil, deadline < sleepsUntil else { return (nil, false) }
                state.sleepsUntil = nil
                return (nil, true)
            }
            if let failure { continuation.resume(throwing: failure) }
            if mustWake { signal() }
        }
    }

    /// Fails every waiter with `.clientClosed` and stops the thread.
    func shutdown() async throws {
        let waiters = state.withLock { state in
            state.isClosed = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.continuation.resume(throwing: Self.closedError) }
        signal()
        try await thread.shutdownGracefully()
    }

    // The descriptors close only here, once nothing can use them: the thread's closure holds
    // the poller until `run` returns, and a `signal()` racing `shutdown()` may still write.
    deinit {
        close(wakeup)
        close(epoll)
    }

    /// The thread's loop: sleep until a socket is ready or the next deadline, resume whoever
    /// is due, until shut down.
    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let timeout: Int32? = state.withLock { state in
                guard !state.isClosed else { return nil }
                let now = ContinuousClock.now
                let wakeAt =
                    state.waiters.values.map(\.deadline).min().map { Swift.min($0, now + self.longestSleep) }
                    ?? now + self.longestSleep
                state.sleepsUntil = wakeAt
                return (wakeAt - now).pollTimeoutMilliseconds
            }
            guard let timeout else { return }
            let count = epoll_wait(epoll, &events, Int32(events.count), timeout)
            var ready: [(CheckedContinuation<Int16, any Error>, Int16)] = []
            var expired: [CheckedContinuation<Int16, any Error>] = []
            state.withLock { state in
                state.sleepsUntil = nil
                for event in events.prefix(Int(max(count, 0))) {
                    let socket = event.data.fd
                    if socket == wakeup {
                        var counter: UInt64 = 0
                        _ = read(wakeup, &counter, MemoryLayout<UInt64>.size)
                        continue
                    }
                    guard let waiter = state.waiters.removeValue(forKey: socket) else { continue }
                    _ = epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
                    ready.append((waiter.continuation, Self.pollEvents(event.events)))
                }
                let now = ContinuousClock.now
                for (socket, waiter) in state.waiters where waiter.deadline <= now {
                    state.waiters[socket] = nil
                    _ = epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
                    expired.append(waiter.continuation)
                }
            }
            ready.forEach { $0.0.resume(returning: $0.1) }
            expired.forEach { $0.resume(throwing: DeadlinePassed()) }
        }
    }

    private func signal() {
        var one: UInt64 = 1
        _ = write(wakeup, &one, MemoryLayout<UInt64>.size)
    }

    private static func epollEvents(_ pollEvents: Int16) -> UInt32 {
        var events: UInt32 = 0
        if pollEvents & Int16(POLLIN) != 0 { events |= EPOLLIN.rawValue }
        if pollEvents & Int16(POLLOUT) != 0 { events |= EPOLLOUT.rawValue }
        return events
    }

    private static func pollEvents(_ epollEvents: UInt32) -> Int16 {
        var events: Int16 = 0
        if epollEvents & EPOLLIN.rawValue != 0 { events |= Int16(POLLIN) }
        if epollEvents & EPOLLOUT.rawValue != 0 { events |= Int16(POLLOUT) }
        if epollEvents & EPOLLERR.rawValue != 0 { events |= Int16(POLLERR) }
        if epollEvents & EPOLLHUP.rawValue != 0 { events |= Int16(POLLHUP) }
        return events
    }

    private static var closedError: PostgresError {
        PostgresError(.clientClosed, message: "the database client is shut down")
    }
}
#endif

#if !os(Linux)
/// Without epoll there is no poller: `init` fails and the client waits on its thread pool.
final class PostgresSocketPoller: Sendable {
    struct DeadlinePassed: Error {}

    init?(longestSleep: Duration = .seconds(1)) { return nil }

    func wait(for events: Int16, on socket: Int32, until deadline: ContinuousClock.Instant) async throws -> Int16 {
        throw DeadlinePassed()
    }

    func shutdown() async throws {}
}
#endif
