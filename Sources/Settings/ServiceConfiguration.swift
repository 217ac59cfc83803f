import Foundation
import Logging
import Subscriptions

/// Everything `subscriptiond` is configured with, read from the environment (and the
/// executables' flags, which are merged over it under the same variable names).
public struct ServiceConfiguration: Sendable {
    /// How log lines are written.
    public enum LogFormat: String, Sendable, CaseIterable { case text, json }

    /// libpq connection string or URL.
    public var databaseURL: String
    /// A streaming replica for `/v1` reads (nil: they go to the primary).
    public var databaseReadURL: String? = nil
    /// The report currency, tax rates and Small Business Program periods.
    public var money = MoneySettings()
    /// How far behind the primary the replica may be and still answer reads.
    public var databaseReadMaxLag: Duration = .seconds(1)
    /// Listen address.
    public var host: String
    /// Listen port (0 picks a free one).
    public var port: Int
    /// HTTPS on the listener (TLS 1.2+); nil speaks plain HTTP for a reverse proxy.
    public var tls: TLSFiles?
    /// The apps whose notifications we accept.
    public var apps: AppRegistry
    /// Production verifyReceipt endpoint.
    public var verifyReceiptURL: String
    /// Sandbox verifyReceipt endpoint.
    public var verifyReceiptSandboxURL: String
    /// Per upstream request.
    public var verifyTimeout: Duration
    /// Notifications processed at once; 0 runs intake and the query API only.
    public var workerConcurrency: Int
    /// How long a worker's claim keeps others away (nil: twice the upstream timeout plus 30 s).
    public var workerLease: Duration?
    /// Bearer token for `/v1/...`; nil disables the query API.
    public var adminToken: Secret?
    /// Larger intake bodies get 413.
    public var maxBodyBytes: Int
    /// Bytes of unauthenticated request bodies held in memory at once; past it intake answers
    /// 503 with `Retry-After` before reading more.
    public var intakeMaxInflightBytes: Int = 64 * 1_024 * 1_024
    /// Minimum level logged.
    public var logLevel: Logger.Level
    /// Text for people, JSON for machines.
    public var logFormat: LogFormat
    /// Where the migration files are (nil: search the usual places).
    public var schemaDirectory: String?
    /// Extra CA bundle for the upstream (tests with a local TLS server); verification stays on.
    public var upstreamCABundle: String?
    /// Database connections kept by this process.
    public var databasePoolSize: Int
    /// `apple` (Apple's documented rule) or `strict` (anyone who ever subscribed in the group is ineligible).
    public var eligibilityPolicy: EligibilityPolicy
    /// The App Store Server API's production and sandbox base URLs (paths are appended).
    public var appStoreAPIURL: String
    /// See `appStoreAPIURL`.
    public var appStoreAPISandboxURL: String
    /// The roots a signed payload must chain to: comma-separated PEM/DER files (nil: the
    /// bundled Apple Root CA – G3).
    public var appleRootCertificates: String?
    /// The roots an app receipt's PKCS#7 signature must chain to before the receipt may link a
    /// user (nil: the bundled Apple Root CA).
    public var appleReceiptRootCertificates: String?
    /// Whether a signed payload's leaf and intermediate are also checked over OCSP (hard fail;
    /// a responder that does not answer makes the payload retryable, never accepted).
    public var appStoreOnlineChecks: Bool
    /// Bearer token for `/metrics`; nil leaves it open.
    public var metricsToken: Secret?
    /// A connection with no complete request for this long is closed (slow or stalled clients).
    public var httpIdleTimeout: Duration
    /// Connections accepted at once; beyond it new ones wait in the listen backlog.
    public var httpMaxConnections: Int
    /// A request whose head and body have not all arrived this long after the connection
    /// opened (or its previous response went out) closes the connection, however slowly
    /// its bytes trickle in.
    public var httpRequestTimeout: Duration
    /// Connections one client address may hold at once; 0 is no cap (behind a reverse proxy).
    public var httpMaxConnectionsPerAddress: Int
    /// How old a signed notification may be at intake (`NOTIFICATION_MAX_AGE_DAYS`).
    public var notificationFreshness: NotificationFreshness
    /// The longest a request waits for a free database connection before answering 503.
    public var databaseLeaseTimeout: Duration
    /// The server-side limit of one statement; the client gives up 5 s later (a dead network path).
    public var databaseStatementTimeout: Duration
    /// The longest `POST /v1/receipts` waits for Apple before answering `202 pending`.
    public var receiptWait: Duration
    /// Upstream transfers the `/v1` API may run at once, apart from the worker's.
    public var apiUpstreamConcurrency: Int
    /// Webhook deliveries in flight at once (different subscriptions).
    public var webhookConcurrency: Int
    /// Per webhook request.
    public var webhookTimeout: Duration
    /// How long a delivery claim keeps others away (nil: the timeout plus 30 s).
    public var webhookLease: Duration?
    /// Receipts are removed from notifications processed longer ago than this.
    public var retentionDays: Int
    /// Retention also removes v2 `signedPayload`s (Apple's evidence) when true.
    public var retentionDropSigned: Bool
    /// Months of notifications (with their attempts) and webhook events that ended longer ago
    /// than this, with nothing waiting, are dropped whole (nil: every month is kept).
    public var partitionRetentionDays: Int? = nil
    /// The intake p99 above which the worker of the same process claims less, down to a trickle,
    /// until intake is fast again (Apple's retries cost more than a worker that lags); nil never yields.
    public var workerYieldLatency: Duration? = .milliseconds(5)
    /// Whether `/console` is served (`CONSOLE`, on unless `off`).
    public var consoleEnabled = true
    /// A console session unused this long is signed out (`CONSOLE_SESSION_IDLE_MINUTES`).
    public var consoleSessionIdle: Duration = .seconds(30 * 60)
    /// One line for each variable that looks like a setting but is none, with the nearest
    /// known one (``UnknownSettings``), for the startup log.
    public var unknownSettingWarnings: [String] = []

    /// The variables read, with their defaults (nil: no default), in the order of DESIGN.md.
    public static let variables: [(name: String, defaultValue: String?)] = [
        ("DATABASE_URL", "postgresql://localhost/subscriptiond"),
        ("DATABASE_READ_URL", nil),
        ("DATABASE_READ_MAX_LAG_MS", "1000"),
        ("SUBSCRIPTIOND_HOST", "127.0.0.1"),
        ("SUBSCRIPTIOND_PORT", "8080"),
        ("TLS_CERT_FILE", nil),
        ("TLS_KEY_FILE", nil),
        ("SUBSCRIPTIOND_CONFIG", nil),
        ("APPSTORE_BUNDLE_ID", nil),
        ("APPSTORE_SHARED_SECRET", nil),
        ("APPSTORE_APP_APPLE_ID", nil),
        ("APPSTORE_ROOT_CERTIFICATES", nil),
        ("APPSTORE_RECEIPT_ROOT_CERTIFICATES", nil),
        ("APPSTORE_ONLINE_CHECKS", "false"),
        ("APPSTORE_ISSUER_ID", nil),
        ("APPSTORE_KEY_ID", nil),
        ("APPSTORE_PRIVATE_KEY_FILE", nil),
        ("APPSTORE_API_URL", "https://api.storekit.apple.com"),
        ("APPSTORE_API_SANDBOX_URL", "https://api.storekit-sandbox.apple.com"),
        ("VERIFY_RECEIPT_URL", "https://buy.itunes.apple.com/verifyReceipt"),
        ("VERIFY_RECEIPT_SANDBOX_URL", "https://sandbox.itunes.apple.com/verifyReceipt"),
        ("VERIFY_TIMEOUT_MS", "10000"),
        ("WORKER_CONCURRENCY", "16"),
        ("WORKER_YIELD_LATENCY_MS", "5"),
        ("ADMIN_TOKEN", nil),
        ("MAX_BODY_BYTES", "4194304"),
        ("INTAKE_MAX_INFLIGHT_BYTES", "67108864"),
        ("LOG_LEVEL", "info"),
        ("LOG_FORMAT", "text"),
        ("SUBSCRIPTIOND_SCHEMA_DIR", nil),
        ("VERIFY_RECEIPT_CA_BUNDLE", nil),
        ("DATABASE_POOL_SIZE", "20"),
        ("WORKER_LEASE_MS", nil),
        ("ELIGIBILITY_POLICY", "apple"),
        ("METRICS_TOKEN", nil),
        ("HTTP_IDLE_TIMEOUT_MS", "30000"),
        ("HTTP_MAX_CONNECTIONS", "2048"),
        ("HTTP_REQUEST_TIMEOUT_MS", "30000"),
        ("HTTP_MAX_CONNECTIONS_PER_ADDRESS", "256"),
        ("NOTIFICATION_MAX_AGE_DAYS", "180"),
        ("DATABASE_LEASE_TIMEOUT_MS", "2000"),
        ("DATABASE_STATEMENT_TIMEOUT_MS", "30000"),
        ("RECEIPT_WAIT_MS", "5000"),
        ("API_UPSTREAM_CONCURRENCY", "8"),
        ("WEBHOOK_URL", nil),
        ("WEBHOOK_SECRET", nil),
        ("WEBHOOK_SECRETS", nil),
        ("WEBHOOK_CONCURRENCY", "8"),
        ("WEBHOOK_TIMEOUT_MS", "10000"),
        ("WEBHOOK_LEASE_MS", nil),
        ("RETENTION_DAYS", "90"),
        ("RETENTION_DROP_SIGNED", "false"),
        ("PARTITION_RETENTION_DAYS", nil),
        ("ALLOW_XCODE_TRANSACTIONS", "false"),
        ("REPORT_CURRENCY", "USD"),
        ("CONSOLE", "on"),
        ("CONSOLE_SESSION_IDLE_MINUTES", "30"),
    ]

    /// Reads and validates the configuration; throws one `ConfigurationError` naming the first
    /// bad setting. A secret setting may come from the file its `*_FILE` variable names
    /// (``SecretSettings``).
    public static func load(environment: [String: String]) throws -> ServiceConfiguration {
        let reader = SettingsReader(environment: try SecretSettings.resolve(environment), defaults: variables)
        let apps = try AppRegistryLoader.load(reader)
        let token = try reader.token("ADMIN_TOKEN")
        let metricsToken = try reader.token("METRICS_TOKEN")
        var configuration = ServiceConfiguration(
            databaseURL: try reader.required("DATABASE_URL"),
            host: try reader.required("SUBSCRIPTIOND_HOST"),
            port: try reader.integer("SUBSCRIPTIOND_PORT", in: 0...65_535),
            tls: try TLSFiles.load(reader),
            apps: apps,
            verifyReceiptURL: try reader.upstreamURL("VERIFY_RECEIPT_URL"),
            verifyReceiptSandboxURL: try reader.upstreamURL("VERIFY_RECEIPT_SANDBOX_URL"),
            verifyTimeout: .milliseconds(try reader.integer("VERIFY_TIMEOUT_MS", in: 1...600_000)),
            workerConcurrency: try reader.integer("WORKER_CONCURRENCY", in: 0...1_024),
            workerLease: try reader.string("WORKER_LEASE_MS").map { _ in
                .milliseconds(try reader.integer("WORKER_LEASE_MS", in: 100...3_600_000))
            },
            adminToken: token.map(Secret.init),
            maxBodyBytes: try reader.integer("MAX_BODY_BYTES", in: 1_024...(256 * 1_024 * 1_024)),
            logLevel: try reader.logLevel("LOG_LEVEL"),
            logFormat: try reader.choice("LOG_FORMAT", LogFormat.self),
            schemaDirectory: reader.string("SUBSCRIPTIOND_SCHEMA_DIR"),
            upstreamCABundle: reader.string("VERIFY_RECEIPT_CA_BUNDLE"),
            databasePoolSize: try reader.integer("DATABASE_POOL_SIZE", in: 2...500),
            eligibilityPolicy: try reader.choice("ELIGIBILITY_POLICY", EligibilityPolicy.self),
            appStoreAPIURL: try reader.upstreamURL("APPSTORE_API_URL"),
            appStoreAPISandboxURL: try reader.upstreamURL("APPSTORE_API_SANDBOX_URL"),
            appleRootCertificates: reader.string("APPSTORE_ROOT_CERTIFICATES"),
            appleReceiptRootCertificates: reader.string("APPSTORE_RECEIPT_ROOT_CERTIFICATES"),
            appStoreOnlineChecks: try reader.boolean("APPSTORE_ONLINE_CHECKS"),
            metricsToken: metricsToken.map(Secret.init),
            httpIdleTimeout: .milliseconds(try reader.integer("HTTP_IDLE_TIMEOUT_MS", in: 100...3_600_000)),
            httpMaxConnections: try reader.integer("HTTP_MAX_CONNECTIONS", in: 1...1_000_000),
            httpRequestTimeout: .milliseconds(try reader.integer("HTTP_REQUEST_TIMEOUT_MS", in: 100...3_600_000)),
            httpMaxConnectionsPerAddress: try reader.integer("HTTP_MAX_CONNECTIONS_PER_ADDRESS", in: 0...1_000_000),
            notificationFreshness: NotificationFreshness(days: try reader.integer("NOTIFICATION_MAX_AGE_DAYS", in: 1...36_500)),
            databaseLeaseTimeout: .milliseconds(try reader.integer("DATABASE_LEASE_TIMEOUT_MS", in: 10...600_000)),
            databaseStatementTimeout: .milliseconds(try reader.integer("DATABASE_STATEMENT_TIMEOUT_MS", in: 100...3_600_000)),
            receiptWait: .milliseconds(try reader.integer("RECEIPT_WAIT_MS", in: 10...600_000)),
            apiUpstreamConcurrency: try reader.integer("API_UPSTREAM_CONCURRENCY", in: 1...256),
            webhookConcurrency: try reader.integer("WEBHOOK_CONCURRENCY", in: 1...256),
            webhookTimeout: .milliseconds(try reader.integer("WEBHOOK_TIMEOUT_MS", in: 100...600_000)),
            webhookLease: try reader.string("WEBHOOK_LEASE_MS").map { _ in
                .milliseconds(try reader.integer("WEBHOOK_LEASE_MS", in: 100...3_600_000))
            },
            retentionDays: try reader.integer("RETENTION_DAYS", in: 1...36_500),
            retentionDropSigned: try reader.boolean("RETENTION_DROP_SIGNED")
        )
        configuration.money = try MoneySettings.load(
            reportCurrency: reader.string("REPORT_CURRENCY"), configurationFile: reader.string("SUBSCRIPTIOND_CONFIG"))
        configuration.databaseReadURL = reader.string("DATABASE_READ_URL")
        configuration.databaseReadMaxLag = .milliseconds(try reader.integer("DATABASE_READ_MAX_LAG_MS", in: 0...3_600_000))
        configuration.partitionRetentionDays = try reader.string("PARTITION_RETENTION_DAYS").map { _ in
            try reader.integer("PARTITION_RETENTION_DAYS", in: 1...36_500)
        }
        configuration.intakeMaxInflightBytes = try reader.integer("INTAKE_MAX_INFLIGHT_BYTES", in: 1_024...(64 * 1_024 * 1_024 * 1_024))
        guard configuration.intakeMaxInflightBytes >= configuration.maxBodyBytes else {
            throw ConfigurationError(
                "INTAKE_MAX_INFLIGHT_BYTES",
                "is \(configuration.intakeMaxInflightBytes), less than MAX_BODY_BYTES (\(configuration.maxBodyBytes)): a body of the largest accepted size could never be read"
            )
        }
        configuration.consoleEnabled = try reader.switch("CONSOLE")
        configuration.unknownSettingWarnings = UnknownSettings.warnings(in: environment)
        configuration.consoleSessionIdle = .seconds(60 * (try reader.integer("CONSOLE_SESSION_IDLE_MINUTES", in: 1...10_080)))
        let yieldMilliseconds = try reader.integer("WORKER_YIELD_LATENCY_MS", in: 0...60_000)
        configuration.workerYieldLatency = yieldMilliseconds == 0 ? nil : .milliseconds(yieldMilliseconds)
        try configuration.checkXcodeTransactions(allowed: try reader.boolean("ALLOW_XCODE_TRANSACTIONS"))
        return configuration
    }
}

extension ServiceConfiguration {
    /// StoreKit Testing purchases are for local development: an app that accepts them
    /// (`xcode_certificate_file`) is refused while any Apple endpoint is not loopback (a
    /// deployment that talks to Apple) unless `ALLOW_XCODE_TRANSACTIONS` says so. The listen
    /// address proves nothing: behind the recommended reverse proxy it is loopback too.
    func checkXcodeTransactions(allowed: Bool) throws {
        guard !allowed, let app = apps.bundleIDs.first(where: { apps.app(bundleID: $0)?.xcodeCertificate != nil }),
            let endpoint = appleEndpoints.first(where: { !Self.isLoopback($0.url) })
        else { return }
        throw ConfigurationError(
            "ALLOW_XCODE_TRANSACTIONS",
            "is false, but app \(app) has xcode_certificate_file (StoreKit Testing in Xcode purchases, for local development only) while \(endpoint.setting) is \(endpoint.url), not loopback: run against appstore-sim, remove xcode_certificate_file, or set ALLOW_XCODE_TRANSACTIONS=true to accept them anyway"
        )
    }

    /// True when the listener serves plain HTTP on a loopback address (a developer's
    /// machine): the console's cookies then go without `Secure`.
    public var listensOnLoopbackHTTP: Bool {
        tls == nil && LoopbackHost.contains(host)
    }

    /// Apple's endpoints, by the setting that names each.
    var appleEndpoints: [(setting: String, url: String)] {
        [
            ("VERIFY_RECEIPT_URL", verifyReceiptURL), ("VERIFY_RECEIPT_SANDBOX_URL", verifyReceiptSandboxURL),
            ("APPSTORE_API_URL", appStoreAPIURL), ("APPSTORE_API_SANDBOX_URL", appStoreAPISandboxURL),
        ]
    }

    private static func isLoopback(_ url: String) -> Bool {
        URLComponents(string: url)?.host.map(LoopbackHost.contains) ?? false
    }

    /// Whether every Apple endpoint is on this machine (appstore-sim): a test or demo
    /// deployment, where trusting the simulator's own root is expected.
    public var appleEndpointsAreLoopback: Bool {
        appleEndpoints.allSatisfy { Self.isLoopback($0.url) }
    }
}
