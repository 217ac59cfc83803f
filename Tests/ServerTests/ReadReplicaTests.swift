import Foundation
import HTTPClient
import Logging
import Postgres
import TestSupport
import Testing

/// `DATABASE_READ_URL` against a real streaming replica: a cluster of its own made with
/// `pg_basebackup` from a primary of its own (Deploy/local/postgres.sh), both on this machine.
@Suite("A read replica takes the /v1 reads while it keeps up, and only then")
struct ReadReplicaTests {
    @Test(
        "reads go to the replica; the answer to a write comes from the primary; a paused or stopped replica hands reads back to the primary"
    )
    func readsFollowTheReplica() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        verify.answerOneActivePeriodPerReceipt()
        var pair = try await ReplicaPair()
        do {
            #expect(try await CLI.run(["migrate"], databaseURL: pair.primaryURL).status == 0)
            try await pair.startReplica()
            try await Self.exercise(pair, verify: verify)
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }

    private static func exercise(_ pair: ReplicaPair, verify: ScriptedVerifyServer) async throws {

        let process = ServiceProcess(
            databaseURL: pair.primaryURL, verify: verify,
            ["DATABASE_READ_URL": pair.replicaURL, "DATABASE_READ_MAX_LAG_MS": "500", "ADMIN_TOKEN": RunningService.adminToken])
        defer { process.kill() }
        let port = try await process.start()
        var logger = Logger(label: "test.read-replica")
        logger.logLevel = .critical
        let http = CurlHTTPClient(logger: logger)
        defer { Task { try? await http.shutdown() } }
        let client = ServiceClient(http: http, base: "http://127.0.0.1:\(port)")
        #expect(try await client.waitForMetric("subscriptiond_database_replica_in_use", 1), "the replica was never used")

        // The answer to a write is the primary's; later reads are the replica's once it has it.
        let rita = try await client.recordReceipt(user: "rita", originalTransactionID: "8800000000000001")
        #expect(rita.contains("8800000000000001"))
        #expect(try await client.waitForStatus("/v1/subscribers/rita", 200))
        let replicaReads = try await client.metric(#"subscriptiond_database_reads_total{database="replica"}"#)
        #expect((replicaReads ?? 0) > 0)

        // A replica that stops replaying falls behind the next write and gives reads back.
        let replica = PostgresClient(configuration: .init(connectionString: pair.replicaURL, maximumConnections: 1), logger: logger)
        defer { Task { try? await replica.shutdown() } }
        _ = try await replica.query("SELECT pg_wal_replay_pause()")
        let sam = try await client.recordReceipt(user: "sam", originalTransactionID: "8800000000000002")
        #expect(sam.contains("8800000000000002"), "the answer to a write must not wait for the replica")
        #expect(try await client.waitForMetric("subscriptiond_database_replica_in_use", 0), "a paused replica kept the reads")
        let lag = try await client.metric("subscriptiond_database_replica_lag_seconds")
        #expect((lag ?? 0) > 0.5)
        let primaryReads = try await client.metric(#"subscriptiond_database_reads_total{database="primary"}"#) ?? 0
        #expect(try await client.get("/v1/subscribers/sam").status == 200)
        let primaryReadsAfter = try await client.metric(#"subscriptiond_database_reads_total{database="primary"}"#) ?? 0
        #expect(primaryReadsAfter > primaryReads)
        let samOnReplica = try await replica.query("SELECT count(*) AS n FROM subscribers WHERE app_user_id = 'sam'")
        #expect(try samOnReplica[0].decode("n", as: Int.self) == 0, "the replica was paused: only the primary knew sam")

        // Replaying again, it catches up and takes the reads back.
        _ = try await replica.query("SELECT pg_wal_replay_resume()")
        #expect(try await client.waitForMetric("subscriptiond_database_replica_in_use", 1))
        #expect(try await client.get("/v1/subscribers/sam").status == 200)

        // A replica that is gone takes no reads, and nothing fails.
        try await pair.stopReplica()
        #expect(try await client.waitForMetric("subscriptiond_database_replica_in_use", 0))
        #expect(try await client.metric("subscriptiond_database_replica_lag_seconds") == -1)
        #expect(try await client.get("/v1/subscribers/rita").status == 200)
        #expect(try await client.get("/v1/subscriptions/8800000000000002").status == 200)
        process.terminate()
    }
}

/// A primary and a streaming replica of it, each a throwaway cluster of Deploy/local/postgres.sh
/// under .local/, removed at the end.
private struct ReplicaPair {
    let primaryName: String
    let replicaName: String
    let primaryURL: String
    private(set) var replicaURL = ""

    init() async throws {
        let tag = UUID().uuidString.prefix(8).lowercased()
        primaryName = "replica-test-\(tag)-primary"
        replicaName = "replica-test-\(tag)-standby"
        try await Self.script("start", name: primaryName)
        primaryURL = try Self.databaseURL(primaryName)
    }

    mutating func startReplica() async throws {
        try await Self.script("replica", name: replicaName, extra: ["LOCAL_POSTGRES_PRIMARY=\(primaryName)"])
        replicaURL = try Self.databaseURL(replicaName)
    }

    func stopReplica() async throws {
        try await Self.script("stop", name: replicaName)
    }

    /// Stops both clusters and removes their files.
    func remove() async {
        for name in [replicaName, primaryName] {
            try? await Self.script("stop", name: name)
            try? FileManager.default.removeItem(at: Self.state(name))
        }
    }

    private static func state(_ name: String) -> URL {
        TestEnvironment.repositoryRoot().appendingPathComponent(".local/\(name)")
    }

    /// Runs postgres.sh `command` for the cluster `name`, its output to a file; a failure
    /// says how the script ended, what it printed and the end of the cluster's own logs.
    private static func script(_ command: String, name: String, extra: [String] = []) async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("postgres-sh-\(name)-\(command).log")
        defer { try? FileManager.default.removeItem(at: log) }
        // Every descriptor above 2 is closed before the script runs, so that the server it
        // leaves running holds none of this test process's pipes or sockets open.
        let ending = try await ChildProcesses.runScript(
            ["env", "LOCAL_POSTGRES_NAME=\(name)"] + extra
                + [
                    "bash", "-c",
                    #"for fd in /proc/self/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done 2>/dev/null; exec bash "$0" "$1""#,
                    TestEnvironment.repositoryRoot().appendingPathComponent("Deploy/local/postgres.sh").path, command,
                ],
            log: log)
        guard ending == .exited(0) else {
            var said = ["postgres.sh \(command) \(name): \(ending)", (try? String(contentsOf: log, encoding: .utf8)) ?? ""]
            for file in ["basebackup.log", "server.log"] {
                let text = (try? String(contentsOf: state(name).appendingPathComponent(file), encoding: .utf8)) ?? ""
                if !text.isEmpty { said.append("\(file): " + text.split(separator: "\n").suffix(10).joined(separator: "\n")) }
            }
            // One line: a test report shows the first line of an error.
            throw ReplicaSetupFailure(message: said.joined(separator: "\n").replacingOccurrences(of: "\n", with: " ⏎ "))
        }
    }

    private static func databaseURL(_ name: String) throws -> String {
        let env = try String(contentsOf: state(name).appendingPathComponent("env"), encoding: .utf8)
        guard let line = env.split(separator: "\n").first(where: { $0.hasPrefix("export DATABASE_URL=") }) else {
            throw ReplicaSetupFailure(message: "no DATABASE_URL in \(name)'s env")
        }
        return String(line.dropFirst("export DATABASE_URL=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }
}

private struct ReplicaSetupFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// What the test asks of the running process over HTTP.
private struct ServiceClient {
    let http: CurlHTTPClient
    let base: String

    func get(_ path: String) async throws -> HTTPClient.HTTPResponse {
        try await http.execute(
            .init(
                method: .get, url: base + path, headers: [HTTPHeader(name: "Authorization", value: "Bearer \(RunningService.adminToken)")],
                timeout: .seconds(10)))
    }

    /// POST /v1/receipts for `user` with a receipt the scripted verify server answers with one
    /// active period of `originalTransactionID`; the answer's body.
    func recordReceipt(user: String, originalTransactionID: String) async throws -> String {
        let body = try JSONSerialization.data(withJSONObject: [
            "app_user_id": user, "receipt_data": Data(originalTransactionID.utf8).base64EncodedString(),
        ])
        var request = HTTPRequest.postJSON(url: base + "/v1/receipts", body: Array(body), timeout: .seconds(10))
        request.headers.append(HTTPHeader(name: "Authorization", value: "Bearer \(RunningService.adminToken)"))
        let response = try await http.execute(request)
        #expect(response.status == 200)
        return String(decoding: response.body, as: UTF8.self)
    }

    /// Polls `path` until it answers `status`; whether it did within 10 s.
    func waitForStatus(_ path: String, _ status: Int) async throws -> Bool {
        try await Polling.until(seconds: 10) { try await get(path).status == status }
    }

    /// The value of the series `name` (with its labels) on /metrics, or nil when absent.
    func metric(_ name: String) async throws -> Double? {
        let text = String(decoding: try await http.execute(.get(url: base + "/metrics", timeout: .seconds(10))).body, as: UTF8.self)
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.dropFirst(name.count + 1)) }
    }

    /// Polls the series `name` until it equals `value`; whether it did within 20 s.
    func waitForMetric(_ name: String, _ value: Double) async throws -> Bool {
        try await Polling.until(seconds: 20) { try await metric(name) == value }
    }
}
