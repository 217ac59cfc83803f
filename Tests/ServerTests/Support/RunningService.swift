import Foundation
import HTTPClient
import Hummingbird
import Logging
import Postgres
import Server
import ServiceLifecycle
import Settings
import TestSupport
import Testing
import UseCases
import Webhooks

/// The real `subscriptiond` application, started in-process on 127.0.0.1:0 against a
/// throwaway database, reached over loopback through the production libcurl client.
struct RunningService: Sendable {
    static let bundleID = "com.example.app"
    static let sharedSecret = "test-shared-secret-0123456789"
    static let adminToken = "test-admin-token-0123456789abcdef"

    let baseURL: String
    let database: PostgresClient
    let databaseURL: String
    let http: CurlHTTPClient

    /// Starts the service with `settings` over the defaults and runs `body` against it;
    /// `prepare` runs on the migrated database before the service starts (a catalog its
    /// configuration names).
    static func with<T: Sendable>(
        verifyServer: ScriptedVerifyServer? = nil,
        settings: [String: String] = [:],
        runsWorker: Bool = true,
        retryPolicy: RetryPolicy = RetryPolicy(baseDelay: .milliseconds(50), maximumDelay: .milliseconds(400), maximumAttempts: 30),
        databaseURL reach: @Sendable (String) -> String = { $0 },
        intakeClock: @escaping @Sendable () -> Date = Date.init,
        prepare: (PostgresClient) async throws -> Void = { _ in },
        _ body: (RunningService) async throws -> T
    ) async throws -> T {
        try await TestDatabase.withClient { database, testDatabase in
            try await prepare(database)
            var environment: [String: String] = [
                "DATABASE_URL": reach(testDatabase.url),
                "SUBSCRIPTIOND_PORT": "0",
                "APPSTORE_BUNDLE_ID": bundleID,
                "APPSTORE_SHARED_SECRET": sharedSecret,
                "ADMIN_TOKEN": adminToken,
                "VERIFY_TIMEOUT_MS": "3000",
                "WORKER_CONCURRENCY": "8",
                "DATABASE_POOL_SIZE": "6",
                "SUBSCRIPTIOND_SCHEMA_DIR": TestEnvironment.schemaDirectory().path,
                // appstore-sim signs each notification at its event's date, over a year back.
                "NOTIFICATION_MAX_AGE_DAYS": "3650",
            ]
            if let verifyServer {
                environment["VERIFY_RECEIPT_URL"] = verifyServer.productionURL
                environment["VERIFY_RECEIPT_SANDBOX_URL"] = verifyServer.sandboxURL
            }
            environment.merge(settings) { _, new in new }
            let instance = try await Instance.start(
                environment: environment, retryPolicy: retryPolicy, runsWorker: runsWorker, intakeClock: intakeClock)
            let group = instance.group
            let running = instance.task
            let port = instance.port
            var logger = Logger(label: "test.subscriptiond")
            logger.logLevel = .warning
            let http = CurlHTTPClient(logger: logger)
            let service = RunningService(
                baseURL: "http://127.0.0.1:\(port)", database: database, databaseURL: testDatabase.url, http: http,
                environment: environment)
            do {
                let result = try await body(service)
                await group.triggerGracefulShutdown()
                try await running.value
                try await http.shutdown()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                _ = try? await running.value
                try? await http.shutdown()
                throw error
            }
        }
    }

    /// One running application: its port and how to stop it.
    struct Instance: Sendable {
        let port: Int
        let group: ServiceGroup
        let task: Task<Void, any Error>
        /// The settings it was started with (to start a twin against the same database).
        let environment: [String: String]

        /// Builds and starts the real application with these settings; returns once it listens.
        static func start(
            environment: [String: String], retryPolicy: RetryPolicy, runsWorker: Bool,
            intakeClock: @escaping @Sendable () -> Date = Date.init
        ) async throws -> Instance {
            let configuration = try ServiceConfiguration.load(environment: environment)
            var logger = Logger(label: "test.subscriptiond")
            logger.logLevel = .warning
            let (ports, portContinuation) = AsyncStream<Int>.makeStream()
            let application = try await buildApplication(
                configuration: configuration,
                environment: ApplicationEnvironment(
                    logger: logger,
                    onServerRunning: { port in portContinuation.yield(port) },
                    retryPolicy: retryPolicy,
                    workerPollInterval: .milliseconds(250),
                    runsWorker: runsWorker,
                    webhookRetryPolicy: WebhookRetryPolicy(baseDelay: .milliseconds(50), maximumDelay: .milliseconds(400)),
                    consumptionInterval: .seconds(1),
                    intakeClock: intakeClock
                )
            )
            let group = ServiceGroup(services: [application], gracefulShutdownSignals: [], logger: logger)
            let task = Task { try await group.run() }
            var port = 0
            for await bound in ports {
                port = bound
                break
            }
            return Instance(port: port, group: group, task: task, environment: environment)
        }

        /// Graceful shutdown, then waits for it to finish.
        func stop() async throws {
            await group.triggerGracefulShutdown()
            try await task.value
        }
    }

    /// The settings this service runs with.
    let environment: [String: String]

    /// POSTs raw bytes to the intake. A 503 is sent again after a growing wait, up to 5 times, as
    /// Apple would (the whole suite on two cores can stall the database past the intake's
    /// deadline); tests of the 503 itself pass `retriesUnavailable: false`.
    func postNotification(
        _ body: [UInt8], contentType: String? = "application/json", retriesUnavailable: Bool = true
    ) async throws -> HTTPClient.HTTPResponse {
        var headers: [HTTPHeader] = []
        if let contentType { headers.append(HTTPHeader(name: "Content-Type", value: contentType)) }
        let request = HTTPClient.HTTPRequest(
            method: .post, url: baseURL + "/notifications/appstore", headers: headers, body: body, timeout: .seconds(30))
        var response = try await execute(request)
        for wait in [1, 2, 4, 8, 16] where retriesUnavailable && response.status == 503 {
            try await Task.sleep(for: .seconds(wait))
            response = try await execute(request)
        }
        return response
    }

    /// POSTs a JSON object to a query API path with the admin token.
    func post(_ path: String, _ object: [String: Any], timeout: Duration = .seconds(30)) async throws -> HTTPClient.HTTPResponse {
        try await post(path, bytes: NotificationBodies.bytes(object), timeout: timeout)
    }

    /// PUTs a JSON object to a query API path with the admin token.
    func put(_ path: String, _ object: [String: Any]) async throws -> HTTPClient.HTTPResponse {
        try await post(path, bytes: NotificationBodies.bytes(object), method: .put)
    }

    /// POSTs (or PUTs) raw JSON bytes to a query API path with the admin token.
    func post(
        _ path: String, bytes: [UInt8], method: HTTPClient.HTTPMethod = .post, timeout: Duration = .seconds(30)
    ) async throws -> HTTPClient.HTTPResponse {
        try await execute(
            HTTPClient.HTTPRequest(
                method: method, url: baseURL + path,
                headers: [
                    HTTPHeader(name: "Content-Type", value: "application/json"),
                    HTTPHeader(name: "Authorization", value: "Bearer \(RunningService.adminToken)"),
                ],
                body: bytes, timeout: timeout))
    }

    /// DELETEs a query API path with the admin token.
    func delete(_ path: String) async throws -> HTTPClient.HTTPResponse {
        try await execute(
            HTTPClient.HTTPRequest(
                method: .delete, url: baseURL + path,
                headers: [HTTPHeader(name: "Authorization", value: "Bearer \(RunningService.adminToken)")],
                timeout: .seconds(10)))
    }

    /// GETs a path with the admin token (or another).
    func get(_ path: String, token: String? = RunningService.adminToken) async throws -> HTTPClient.HTTPResponse {
        var headers: [HTTPHeader] = []
        if let token { headers.append(HTTPHeader(name: "Authorization", value: "Bearer \(token)")) }
        return try await execute(HTTPClient.HTTPRequest(method: .get, url: baseURL + path, headers: headers, timeout: .seconds(10)))
    }

    /// Sends a request to the service, recording the exchange for the contract check.
    func execute(_ request: HTTPClient.HTTPRequest) async throws -> HTTPClient.HTTPResponse {
        let response = try await http.execute(request)
        ContractRecorder.record(request, response)
        return response
    }

    /// Waits until no notification is pending or retrying (or the deadline passes).
    func waitUntilSettled(timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let open = try await database.query("SELECT count(*) AS n FROM notifications WHERE state IN ('pending', 'retrying')")
            if try open[0].decode("n", as: Int.self) == 0 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("notifications did not settle within \(timeout)")
    }

    /// Waits until no webhook event is pending or retrying (or the deadline passes).
    func waitUntilWebhooksSettled(timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let open = try await database.query("SELECT count(*) AS n FROM webhook_events WHERE state IN ('pending', 'retrying')")
            if try open[0].decode("n", as: Int.self) == 0 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("webhook events did not settle within \(timeout)")
    }

    /// Notification counts by state.
    func stateCounts() async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try await database.query("SELECT state, count(*) AS n FROM notifications GROUP BY state") {
            counts[try row.decode("state")] = try row.decode("n")
        }
        return counts
    }
}

/// Decodes a JSON object from a response body.
func jsonObject(_ response: HTTPClient.HTTPResponse) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
}
