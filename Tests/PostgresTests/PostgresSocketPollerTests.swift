#if os(Linux)
import Glibc
@testable import Postgres
import Testing

/// The poller on its own, over Unix socket pairs: no database needed to see which waiter
/// wakes when. Durations are upper bounds that prove a wait ended, not benchmarks.
@Suite("Postgres: the socket poller wakes each waiter for its own socket or deadline")
struct PostgresSocketPollerTests {
    @Test("a waiter resumes when its socket becomes readable, with POLLIN")
    func readable() async throws {
        let poller = try #require(PostgresSocketPoller())
        let pair = try SocketPair()
        async let events = poller.wait(for: Int16(POLLIN), on: pair.reader, until: .now + .seconds(30))
        try await Task.sleep(for: .milliseconds(20))
        pair.send()
        #expect(try await events & Int16(POLLIN) != 0)
        withExtendedLifetime(pair) {}  // the socket stays open until the wait is over
        try await poller.shutdown()
    }

    @Test("a writable socket resumes at once with POLLOUT")
    func writable() async throws {
        let poller = try #require(PostgresSocketPoller())
        let pair = try SocketPair()
        let events = try await poller.wait(for: Int16(POLLOUT), on: pair.writer, until: .now + .seconds(30))
        withExtendedLifetime(pair) {}  // the socket stays open until the wait is over
        #expect(events & Int16(POLLOUT) != 0)
        try await poller.shutdown()
    }

    @Test("64 waiters on 64 sockets each wake for their own socket, in any order")
    func manyWaiters() async throws {
        let poller = try #require(PostgresSocketPoller())
        let pairs = try (0..<64).map { _ in try SocketPair() }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, pair) in pairs.enumerated() {
                group.addTask {
                    let events = try await poller.wait(for: Int16(POLLIN), on: pair.reader, until: .now + .seconds(30))
                    #expect(events & Int16(POLLIN) != 0)
                    #expect(pair.received() == 1, "woken only once its own socket has data")
                    return index
                }
            }
            try await Task.sleep(for: .milliseconds(50))
            // One socket at a time, so a waiter woken for another's socket finds no data.
            for pair in pairs.shuffled() {
                pair.send()
                try await Task.sleep(for: .milliseconds(1))
            }
            var woken: Set<Int> = []
            for try await index in group { woken.insert(index) }
            #expect(woken == Set(0..<64))
        }
        try await poller.shutdown()
    }

    @Test("a silent socket fails at its deadline, not before, and the socket can be waited on again")
    func deadline() async throws {
        // A poller that sleeps 30 s with nothing due, so "woken for the deadline" and "noticed
        // at the end of its sleep" stay far apart however loaded the machine is.
        let poller = try #require(PostgresSocketPoller(longestSleep: .seconds(30)))
        let pair = try SocketPair()
        // Let the poller's thread fall asleep with nothing to wait for.
        try await Task.sleep(for: .milliseconds(50))
        let start = ContinuousClock.now
        await #expect(throws: PostgresSocketPoller.DeadlinePassed.self) {
            // Due long before that sleep ends: registering must wake it.
            try await poller.wait(for: Int16(POLLIN), on: pair.reader, until: start + .milliseconds(100))
        }
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(100))
        // Not woken, the poller would notice at the end of its sleep, about 30 s after start.
        #expect(waited < .seconds(10), "woken for the deadline, not at the end of the poller's sleep")
        pair.send()
        let events = try await poller.wait(for: Int16(POLLIN), on: pair.reader, until: .now + .seconds(30))
        #expect(events & Int16(POLLIN) != 0)
        try await poller.shutdown()
    }

    @Test("shutting down fails the waiters and refuses new ones with clientClosed")
    func shutdown() async throws {
        let poller = try #require(PostgresSocketPoller())
        let pair = try SocketPair()
        let waiting = Task { try await poller.wait(for: Int16(POLLIN), on: pair.reader, until: .now + .seconds(30)) }
        try await Task.sleep(for: .milliseconds(50))
        try await poller.shutdown()
        do {
            _ = try await waiting.value
            Issue.record("a waiter must fail when the poller shuts down")
        } catch let error as PostgresError {
            #expect(error.code == .clientClosed)
        }
        do {
            _ = try await poller.wait(for: Int16(POLLIN), on: pair.reader, until: .now + .seconds(30))
            Issue.record("a closed poller must refuse waiters")
        } catch let error as PostgresError {
            #expect(error.code == .clientClosed)
        }
    }
}

/// Two connected Unix stream sockets, closed when the pair is freed.
private final class SocketPair: Sendable {
    let reader: Int32
    let writer: Int32

    init() throws {
        var descriptors: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors) == 0 else {
            throw SocketPairError(errno: errno)
        }
        reader = descriptors[0]
        writer = descriptors[1]
    }

    deinit {
        close(reader)
        close(writer)
    }

    /// Writes one byte to the reader's end.
    func send() {
        var byte: UInt8 = 1
        _ = write(writer, &byte, 1)
    }

    /// Reads what has arrived without blocking; the number of bytes.
    func received() -> Int {
        var buffer = [UInt8](repeating: 0, count: 16)
        return recv(reader, &buffer, buffer.count, Int32(MSG_DONTWAIT))
    }

    struct SocketPairError: Error {
        let errno: Int32
    }
}
#endif
