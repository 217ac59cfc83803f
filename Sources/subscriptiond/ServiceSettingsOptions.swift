import ArgumentParser
import Settings

/// One flag per configuration variable; a flag given on the command line overrides the
/// environment variable of the same name.
struct ServiceSettingsOptions: ParsableArguments {
    @Option(help: "libpq connection string or URL (DATABASE_URL).")
    var databaseURL: String?
    @Option(help: "A streaming replica for /v1 reads (DATABASE_READ_URL; unset: reads go to DATABASE_URL).")
    var databaseReadURL: String?
    @Option(help: "How far behind the primary the replica may be and still answer reads, in ms (DATABASE_READ_MAX_LAG_MS, default 1000).")
    var databaseReadMaxLagMs: String?
    @Option(help: "Listen address (SUBSCRIPTIOND_HOST, default 127.0.0.1).")
    var host: String?
    @Option(help: "Listen port (SUBSCRIPTIOND_PORT, default 8080).")
    var port: String?
    @Option(
        help:
            "PEM certificate chain to serve HTTPS with, TLS 1.2+, read again on SIGHUP (TLS_CERT_FILE; unset: plain HTTP for a reverse proxy)."
    )
    var tlsCertFile: String?
    @Option(help: "PEM private key of that certificate (TLS_KEY_FILE).")
    var tlsKeyFile: String?
    @Option(help: "JSON file with the apps and their shared secrets (SUBSCRIPTIOND_CONFIG).")
    var config: String?
    @Option(help: "Single-app shortcut: the app's bundle id (APPSTORE_BUNDLE_ID).")
    var appstoreBundleID: String?
    @Option(help: "Single-app shortcut: the shared secret (APPSTORE_SHARED_SECRET; prefer the variable, flags show in `ps`).")
    var appstoreSharedSecret: String?
    @Option(help: "Production verifyReceipt URL (VERIFY_RECEIPT_URL).")
    var verifyReceiptURL: String?
    @Option(help: "Sandbox verifyReceipt URL (VERIFY_RECEIPT_SANDBOX_URL).")
    var verifyReceiptSandboxURL: String?
    @Option(help: "Per upstream request, in milliseconds (VERIFY_TIMEOUT_MS, default 10000).")
    var verifyTimeoutMs: String?
    @Option(help: "Notifications processed at once; 0 takes notifications without processing them (WORKER_CONCURRENCY, default 16).")
    var workerConcurrency: String?
    @Option(
        help:
            "Intake p99 in ms above which the worker claims less until intake is fast again; 0 never yields (WORKER_YIELD_LATENCY_MS, default 5)."
    )
    var workerYieldLatencyMs: String?
    @Option(help: "Bearer token for /v1 routes; unset disables them (ADMIN_TOKEN; prefer the variable).")
    var adminToken: String?
    @Option(help: "Largest accepted intake body in bytes (MAX_BODY_BYTES, default 4194304).")
    var maxBodyBytes: String?
    @Option(
        help:
            "Bytes of unauthenticated request bodies held at once; past it intake answers 503 with Retry-After (INTAKE_MAX_INFLIGHT_BYTES, default 67108864)."
    )
    var intakeMaxInflightBytes: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical (LOG_LEVEL, default info).")
    var logLevel: String?
    @Option(help: "text or json (LOG_FORMAT, default text).")
    var logFormat: String?
    @Option(help: "Milliseconds a worker's claim keeps other workers away (WORKER_LEASE_MS; default twice the upstream timeout + 30 s).")
    var workerLeaseMs: String?
    @Option(help: "Database connections this process keeps (DATABASE_POOL_SIZE, default 20).")
    var databasePoolSize: String?
    @Option(help: "Extra CA bundle for the verify endpoint; TLS verification stays on (VERIFY_RECEIPT_CA_BUNDLE).")
    var verifyReceiptCaBundle: String?
    @Option(help: "apple (Apple's documented rule) or strict (ELIGIBILITY_POLICY, default apple).")
    var eligibilityPolicy: String?
    @Option(help: "Folder with the migration files (SUBSCRIPTIOND_SCHEMA_DIR; default: found next to the binary).")
    var schemaDir: String?
    @Option(help: "Where status-change events go, for every app without its own webhook_url (WEBHOOK_URL; https:// except loopback).")
    var webhookURL: String?
    @Option(
        help:
            "HMAC-SHA256 key signing the events: at least 32 characters, or whsec_ and the base64 of a key of at least 24 bytes (WEBHOOK_SECRET; prefer the variable)."
    )
    var webhookSecret: String?
    @Option(
        help:
            "Instead of WEBHOOK_SECRET during a rotation: new,old (comma-separated, newest first); every delivery is signed with each (WEBHOOK_SECRETS; prefer the variable)."
    )
    var webhookSecrets: String?
    @Option(help: "Webhook deliveries in flight at once (WEBHOOK_CONCURRENCY, default 8).")
    var webhookConcurrency: String?
    @Option(help: "Per webhook request, in milliseconds (WEBHOOK_TIMEOUT_MS, default 10000).")
    var webhookTimeoutMs: String?
    @Option(help: "Milliseconds a delivery claim keeps others away (WEBHOOK_LEASE_MS; default the timeout + 30 s).")
    var webhookLeaseMs: String?
    @Option(help: "Receipts are removed from notifications processed longer ago than this many days (RETENTION_DAYS, default 90).")
    var retentionDays: String?
    @Option(help: "true also removes v2 signedPayloads at the retention cut-off (RETENTION_DROP_SIGNED, default false).")
    var retentionDropSigned: String?
    @Option(
        help:
            "Months of notifications and webhook events that ended longer ago than this many days, with nothing waiting, are dropped (PARTITION_RETENTION_DAYS, default: kept)."
    )
    var partitionRetentionDays: String?
    @Option(
        help:
            "true accepts StoreKit Testing in Xcode purchases while an Apple endpoint is not loopback (ALLOW_XCODE_TRANSACTIONS, default false)."
    )
    var allowXcodeTransactions: String?
    @Option(help: "Single-app shortcut: the app's numeric Apple ID, checked on Production v2 notifications (APPSTORE_APP_APPLE_ID).")
    var appstoreAppAppleID: String?
    @Option(
        help:
            "Comma-separated PEM/DER roots signed payloads must chain to (APPSTORE_ROOT_CERTIFICATES; default the bundled Apple Root CA - G3)."
    )
    var appstoreRootCertificates: String?
    @Option(
        help:
            "Comma-separated PEM/DER roots an app receipt's PKCS#7 signature must chain to before it may link a user (APPSTORE_RECEIPT_ROOT_CERTIFICATES; default the bundled Apple Root CA)."
    )
    var appstoreReceiptRootCertificates: String?
    @Option(
        help:
            "Ask Apple's OCSP responders whether a signed payload's leaf and intermediate are revoked, true or false (APPSTORE_ONLINE_CHECKS, default false)."
    )
    var appstoreOnlineChecks: String?
    @Option(help: "Single-app shortcut: App Store Server API issuer id (APPSTORE_ISSUER_ID).")
    var appstoreIssuerID: String?
    @Option(help: "Single-app shortcut: App Store Server API key id (APPSTORE_KEY_ID).")
    var appstoreKeyID: String?
    @Option(help: "Single-app shortcut: the In-App Purchase key's .p8 file (APPSTORE_PRIVATE_KEY_FILE).")
    var appstorePrivateKeyFile: String?
    @Option(help: "App Store Server API production base URL (APPSTORE_API_URL, default https://api.storekit.apple.com).")
    var appstoreAPIURL: String?
    @Option(help: "App Store Server API sandbox base URL (APPSTORE_API_SANDBOX_URL, default https://api.storekit-sandbox.apple.com).")
    var appstoreAPISandboxURL: String?
    @Option(help: "Bearer token for /metrics; unset leaves it open (METRICS_TOKEN; prefer the variable).")
    var metricsToken: String?
    @Option(help: "Milliseconds a connection may go without a complete request (HTTP_IDLE_TIMEOUT_MS, default 30000).")
    var httpIdleTimeoutMs: String?
    @Option(help: "Connections served at once (HTTP_MAX_CONNECTIONS, default 2048).")
    var httpMaxConnections: String?
    @Option(help: "Milliseconds a request's head and body may take to arrive, however slowly (HTTP_REQUEST_TIMEOUT_MS, default 30000).")
    var httpRequestTimeoutMs: String?
    @Option(
        help: "Connections one client address may hold; 0 for none behind a reverse proxy (HTTP_MAX_CONNECTIONS_PER_ADDRESS, default 256).")
    var httpMaxConnectionsPerAddress: String?
    @Option(help: "Days back a signed notification's signedDate may lie at intake (NOTIFICATION_MAX_AGE_DAYS, default 180).")
    var notificationMaxAgeDays: String?
    @Option(help: "Longest wait for a database connection before answering 503, in ms (DATABASE_LEASE_TIMEOUT_MS, default 2000).")
    var databaseLeaseTimeoutMs: String?
    @Option(help: "Server-side statement limit in ms; the client gives up 5 s later (DATABASE_STATEMENT_TIMEOUT_MS, default 30000).")
    var databaseStatementTimeoutMs: String?
    @Option(help: "Longest POST /v1/receipts waits for Apple before answering 202, in ms (RECEIPT_WAIT_MS, default 5000).")
    var receiptWaitMs: String?
    @Option(help: "Upstream transfers the /v1 API runs at once (API_UPSTREAM_CONCURRENCY, default 8).")
    var apiUpstreamConcurrency: String?
    @Option(help: "The currency reports are in and exchange rates are quoted in (REPORT_CURRENCY, default USD).")
    var reportCurrency: String?
    @Option(help: "Serve the web console at /console: on or off (CONSOLE, default on).")
    var console: String?
    @Option(help: "Minutes a console session may sit unused before it is signed out (CONSOLE_SESSION_IDLE_MINUTES, default 30).")
    var consoleSessionIdleMinutes: String?
    @Option(help: "A file holding DATABASE_URL, one trailing newline dropped (DATABASE_URL_FILE; a systemd credential: %d/name).")
    var databaseURLFile: String?
    @Option(help: "A file holding DATABASE_READ_URL (DATABASE_READ_URL_FILE).")
    var databaseReadURLFile: String?
    @Option(help: "A file holding APPSTORE_SHARED_SECRET (APPSTORE_SHARED_SECRET_FILE).")
    var appstoreSharedSecretFile: String?
    @Option(help: "A file holding ADMIN_TOKEN (ADMIN_TOKEN_FILE).")
    var adminTokenFile: String?
    @Option(help: "A file holding METRICS_TOKEN (METRICS_TOKEN_FILE).")
    var metricsTokenFile: String?
    @Option(help: "A file holding WEBHOOK_SECRET (WEBHOOK_SECRET_FILE).")
    var webhookSecretFile: String?
    @Option(help: "A file holding WEBHOOK_SECRETS, comma-separated or one a line, newest first (WEBHOOK_SECRETS_FILE).")
    var webhookSecretsFile: String?

    /// The process environment with every given flag written over its variable.
    func environment(merging base: [String: String]) -> [String: String] {
        let flags: [String: String?] = [
            "DATABASE_URL": databaseURL, "DATABASE_READ_URL": databaseReadURL, "DATABASE_READ_MAX_LAG_MS": databaseReadMaxLagMs,
            "SUBSCRIPTIOND_HOST": host, "SUBSCRIPTIOND_PORT": port,
            "TLS_CERT_FILE": tlsCertFile, "TLS_KEY_FILE": tlsKeyFile,
            "SUBSCRIPTIOND_CONFIG": config, "APPSTORE_BUNDLE_ID": appstoreBundleID,
            "APPSTORE_SHARED_SECRET": appstoreSharedSecret, "VERIFY_RECEIPT_URL": verifyReceiptURL,
            "VERIFY_RECEIPT_SANDBOX_URL": verifyReceiptSandboxURL, "VERIFY_TIMEOUT_MS": verifyTimeoutMs,
            "WORKER_CONCURRENCY": workerConcurrency, "WORKER_YIELD_LATENCY_MS": workerYieldLatencyMs, "ADMIN_TOKEN": adminToken,
            "MAX_BODY_BYTES": maxBodyBytes, "INTAKE_MAX_INFLIGHT_BYTES": intakeMaxInflightBytes,
            "LOG_LEVEL": logLevel, "LOG_FORMAT": logFormat, "SUBSCRIPTIOND_SCHEMA_DIR": schemaDir,
            "WORKER_LEASE_MS": workerLeaseMs, "DATABASE_POOL_SIZE": databasePoolSize,
            "VERIFY_RECEIPT_CA_BUNDLE": verifyReceiptCaBundle, "ELIGIBILITY_POLICY": eligibilityPolicy,
            "WEBHOOK_URL": webhookURL, "WEBHOOK_SECRET": webhookSecret, "WEBHOOK_SECRETS": webhookSecrets,
            "WEBHOOK_CONCURRENCY": webhookConcurrency,
            "WEBHOOK_TIMEOUT_MS": webhookTimeoutMs, "WEBHOOK_LEASE_MS": webhookLeaseMs, "RETENTION_DAYS": retentionDays,
            "RETENTION_DROP_SIGNED": retentionDropSigned, "REPORT_CURRENCY": reportCurrency,
            "CONSOLE": console, "CONSOLE_SESSION_IDLE_MINUTES": consoleSessionIdleMinutes,
            "PARTITION_RETENTION_DAYS": partitionRetentionDays,
            "ALLOW_XCODE_TRANSACTIONS": allowXcodeTransactions,
            "APPSTORE_APP_APPLE_ID": appstoreAppAppleID,
            "APPSTORE_ROOT_CERTIFICATES": appstoreRootCertificates, "APPSTORE_ONLINE_CHECKS": appstoreOnlineChecks,
            "APPSTORE_RECEIPT_ROOT_CERTIFICATES": appstoreReceiptRootCertificates,
            "APPSTORE_ISSUER_ID": appstoreIssuerID,
            "APPSTORE_KEY_ID": appstoreKeyID, "APPSTORE_PRIVATE_KEY_FILE": appstorePrivateKeyFile,
            "APPSTORE_API_URL": appstoreAPIURL, "APPSTORE_API_SANDBOX_URL": appstoreAPISandboxURL,
            "METRICS_TOKEN": metricsToken, "HTTP_IDLE_TIMEOUT_MS": httpIdleTimeoutMs, "HTTP_MAX_CONNECTIONS": httpMaxConnections,
            "HTTP_REQUEST_TIMEOUT_MS": httpRequestTimeoutMs, "HTTP_MAX_CONNECTIONS_PER_ADDRESS": httpMaxConnectionsPerAddress,
            "NOTIFICATION_MAX_AGE_DAYS": notificationMaxAgeDays,
            "DATABASE_LEASE_TIMEOUT_MS": databaseLeaseTimeoutMs, "DATABASE_STATEMENT_TIMEOUT_MS": databaseStatementTimeoutMs,
            "RECEIPT_WAIT_MS": receiptWaitMs, "API_UPSTREAM_CONCURRENCY": apiUpstreamConcurrency,
            "DATABASE_URL_FILE": databaseURLFile, "DATABASE_READ_URL_FILE": databaseReadURLFile,
            "APPSTORE_SHARED_SECRET_FILE": appstoreSharedSecretFile, "ADMIN_TOKEN_FILE": adminTokenFile,
            "METRICS_TOKEN_FILE": metricsTokenFile, "WEBHOOK_SECRET_FILE": webhookSecretFile, "WEBHOOK_SECRETS_FILE": webhookSecretsFile,
        ]
        var merged = base
        // A secret's flag overrides its *_FILE variable too, and the reverse (both flags at
        // once still stop startup naming both).
        for name in SecretSettings.names {
            if flags[name] ?? nil != nil { merged[SecretSettings.fileVariable(name)] = nil }
            if flags[SecretSettings.fileVariable(name)] ?? nil != nil { merged[name] = nil }
        }
        for case (let name, let value?) in flags { merged[name] = value }
        return merged
    }
}
