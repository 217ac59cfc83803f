import Foundation
import HTTPClient
import Logging
import Postgres
import Synchronization
import TestSupport
import Testing

@Suite("Crash: kill -9 during a burst loses nothing that was acknowledged")
struct CrashRecoveryTests {
    static let burst = 2_000

    @Test("every 200 survives kill -9 and ends processed after restart; Apple's resends complete the rest")
    func killDuringBurst() async throws {
        let settings = ["VERIFY_TIMEOUT_MS": "2000", "WORKER_LEASE_MS": "2000", "WORKER_CONCURRENCY": "8"]
        try await RealBinary.with(settings, maxConcurrentTransfers: 32) { process, database, http in
            let bodies = (0..<Self.burst).map { NotificationBodies.renewal(originalTransactionID: String(6_000_000_000_000_000 + $0)) }

            let firstPort = try await process.start()
            let progress = BurstProgress()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<32 {
                    group.addTask {
                        for index in stride(from: lane, to: Self.burst, by: 32) {
                            if progress.countSent() == Self.burst / 3 { process.kill() }
                            guard
                                let response = try? await http.execute(
                                    .postJSON(
                                        url: "http://127.0.0.1:\(firstPort)/notifications/appstore", body: bodies[index],
                                        timeout: .seconds(10))),
                                response.status == 200,
                                let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                                let id = object["id"] as? Int
                            else { continue }
                            progress.acknowledge(index, id: id)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let acked = progress.acknowledged
            #expect(acked.count > 0)
            #expect(acked.count < Self.burst, "the kill should have cut the burst short")

            // Every acknowledged notification is in the inbox right now, before any restart.
            let ids = acked.values.map { Int64($0) }
            let stored = try await database.query(
                "SELECT count(*) AS n FROM notifications WHERE id = ANY(\(ids.map(String.init))::bigint[])")
            #expect(try stored[0].decode("n", as: Int.self) == acked.count)

            // Restart; Apple resends what it never got a 200 for.
            let port = try await process.start()
            for index in 0..<Self.burst where acked[index] == nil {
                let response = try await http.execute(
                    .postJSON(url: "http://127.0.0.1:\(port)/notifications/appstore", body: bodies[index], timeout: .seconds(10)))
                #expect(response.status == 200)
            }
            let deadline = ContinuousClock.now + .seconds(120)
            var processed = 0
            while ContinuousClock.now < deadline {
                processed = try await database.query("SELECT count(*) AS n FROM notifications WHERE state = 'processed'")[0].decode("n")
                if processed == Self.burst { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(processed == Self.burst)
            #expect(try await database.query("SELECT count(*) AS n FROM notifications")[0].decode("n", as: Int.self) == Self.burst)
            #expect(
                try await database.query("SELECT count(*) AS n FROM subscriptions WHERE status = 'active'")[0].decode("n", as: Int.self)
                    == Self.burst)
        }
    }
}

/// What the burst's lanes share: how many were sent, and which got a 200 with which id.
final class BurstProgress: Sendable {
    private let state = Mutex<(sent: Int, acknowledged: [Int: Int])>((0, [:]))

    func countSent() -> Int {
        state.withLock {
            $0.sent += 1
            return $0.sent
        }
    }
    func acknowledge(_ index: Int, id: Int) { state.withLock { $0.acknowledged[index] = id } }
    var acknowledged: [Int: Int] { state.withLock { $0.acknowledged } }
}

/// The built `subscriptiond` binary, run as a child process that the test can kill -9.
final class ServiceProcess: Sendable {
    private let environment: [String: String]
    private let current = Mutex<Process?>(nil)
    private let log = Mutex<ProcessLog?>(nil)

    init(environment: [String: String]) {
        self.environment = environment
    }

    /// The test app against `databaseURL` and a scripted verify server (or the verify URLs
    /// of `extra`), on a free port with the log level that prints the port; `extra` adds or
    /// overrides settings.
    convenience init(databaseURL: String, verify: ScriptedVerifyServer?, _ extra: [String: String] = [:]) {
        var environment = [
            "DATABASE_URL": databaseURL, "SUBSCRIPTIOND_PORT": "0",
            "APPSTORE_BUNDLE_ID": RunningService.bundleID, "APPSTORE_SHARED_SECRET": RunningService.sharedSecret,
            "SUBSCRIPTIOND_SCHEMA_DIR": TestEnvironment.schemaDirectory().path, "LOG_LEVEL": "info",
        ]
        if let verify {
            environment["VERIFY_RECEIPT_URL"] = verify.productionURL
            environment["VERIFY_RECEIPT_SANDBOX_URL"] = verify.sandboxURL
        }
        self.init(environment: environment.merging(extra) { _, new in new })
    }

    /// Starts the binary and returns the port it listens on (read from its log).
    func start() async throws -> Int {
        let process = Process()
        process.executableURL = TestEnvironment.repositoryRoot().appendingPathComponent(".build/debug/subscriptiond")
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let log = ProcessLog()
        self.log.withLock { $0 = log }
        // Drain the child's log on a thread of its own, so the child never blocks on a full pipe.
        Thread.detachNewThread {
            while let chunk = ChildProcesses.readChunk(errors.fileHandleForReading) { log.append(chunk) }
        }
        try ChildProcesses.launch(process)
        current.withLock { $0 = process }
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline && process.isRunning {
            if let port = log.port { return port }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ProcessStartFailure(log: log.text)
    }

    /// A test that ends early (a thrown error) must not leave its child running.
    deinit {
        current.withLock { process in
            guard let process, process.isRunning else { return }
            Foundation.kill(process.processIdentifier, SIGKILL)
        }
    }

    /// True while the child runs.
    var isRunning: Bool { current.withLock { $0?.isRunning ?? false } }

    /// The child's process id while it runs (to read its /proc entries).
    var processIdentifier: Int32? { current.withLock { $0?.isRunning == true ? $0?.processIdentifier : nil } }

    /// SIGKILL: no shutdown, no flush, like a crash.
    func kill() {
        current.withLock { process in
            guard let process, process.isRunning else { return }
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Sends `signal` (SIGHUP: read the TLS files again) without waiting.
    func send(_ signal: Int32) {
        current.withLock { process in
            guard let process, process.isRunning else { return }
            Foundation.kill(process.processIdentifier, signal)
        }
    }

    /// The child's log so far.
    var logText: String { log.withLock { $0?.text ?? "" } }

    /// SIGTERM and wait.
    func terminate() {
        current.withLock { process in
            guard let process, process.isRunning else { return }
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// The child's log so far, filled by the draining thread.
    final class ProcessLog: Sendable {
        private let buffer = Mutex("")

        func append(_ data: Data) { buffer.withLock { $0 += String(decoding: data, as: UTF8.self) } }
        var text: String { buffer.withLock { $0 } }

        /// The port from HummingbirdCore's "listening on 127.0.0.1:N" line (or 0.0.0.0:N, which
        /// includes loopback), once logged.
        var port: Int? {
            let text = self.text
            guard let range = text.range(of: #"listening on (127\.0\.0\.1|0\.0\.0\.0):\d+"#, options: .regularExpression) else {
                return nil
            }
            return Int(text[range].split(separator: ":").last ?? "")
        }
    }

    struct ProcessStartFailure: Error, CustomStringConvertible {
        let log: String
        var description: String { "subscriptiond did not start:\n\(log)" }
    }
}
