import Foundation
import HTTPClient
import Logging
import Postgres
import TestSupport

/// The built `subscriptiond` against a fresh database and a scripted verify server (one
/// active period per receipt), with an HTTP client to talk to it: what the tests that must
/// see the real process (a crash, a kill -9, hostile clients) share. Starting the process is
/// the test's own step; everything is stopped after `body`.
enum RealBinary {
    static func with(
        _ settings: [String: String] = [:], maxConcurrentTransfers: Int = 16,
        _ body: (ServiceProcess, PostgresClient, CurlHTTPClient) async throws -> Void
    ) async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        verify.answerOneActivePeriodPerReceipt()
        try await TestDatabase.withClient { database, testDatabase in
            let process = ServiceProcess(databaseURL: testDatabase.url, verify: verify, settings)
            var logger = Logger(label: "test.real-binary")
            logger.logLevel = .critical
            let http = CurlHTTPClient(configuration: .init(maxConcurrentTransfers: maxConcurrentTransfers), logger: logger)
            do {
                try await body(process, database, http)
            } catch {
                process.kill()
                try? await http.shutdown()
                throw error
            }
            process.terminate()
            try await http.shutdown()
        }
    }
}
