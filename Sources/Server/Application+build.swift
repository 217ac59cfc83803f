import AppStoreSignature
import Foundation
import HTTPClient
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Postgres
import Prometheus
import ServiceLifecycle
import Store
import SubscriptiondCore

/// What `buildApplication` needs besides the configuration.
public struct ApplicationEnvironment: Sendable {
    /// The process's logger.
    public var logger: Logger
    /// The registry `/metrics` exposes (bootstrapped into swift-metrics by the executable).
    public var metricsRegistry: PrometheusCollectorRegistry
    /// Called with the bound port once the server listens (tests use port 0).
    public var onServerRunning: @Sendable (Int) async -> Void
    /// When failed notifications are tried again.
    public var retryPolicy: RetryPolicy
    /// How often the worker looks for due work when nothing signals it.
    public var workerPollInterval: Duration
    /// False to run intake and API only (tests of intake alone).
    public var runsWorker: Bool
    /// When failed webhook deliveries are tried again (tests shorten it).
    public var webhookRetryPolicy: WebhookRetryPolicy
    /// How often the retention job runs.
    public var retentionInterval: Duration
    /// The clock intake judges a signed notification's age by (tests of Apple's dated fixtures pin it).
    public var intakeClock: @Sendable () -> Date

    /// Creates the environment.
    public init(
        logger: Logger,
        metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        retryPolicy: RetryPolicy = RetryPolicy(),
        workerPollInterval: Duration = .milliseconds(500),
        runsWorker: Bool = true,
        webhookRetryPolicy: WebhookRetryPolicy = WebhookRetryPolicy(),
        retentionInterval: Duration = .seconds(3_600),
        intakeClock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.logger = logger
        self.metricsRegistry = metricsRegistry
        self.onServerRunning = onServerRunning
        self.retryPolicy = retryPolicy
        self.workerPollInterval = workerPollInterval
        self.runsWorker = runsWorker
        self.webhookRetryPolicy = webhookRetryPolicy
        self.retentionInterval = retentionInterval
        self.intakeClock = intakeClock
    }
}

/// Builds the whole `subscriptiond` process: routes, worker, and the resources they share,
/// as one Hummingbird application whose services start and stop together.
///
/// Refuses (throws) when the database schema is behind or the Schema directory is missing.
public func buildApplication(
    configuration: ServiceConfiguration,
    environment: ApplicationEnvironment
) async throws -> some ApplicationProtocol {
    let logger = environment.logger
    let roots = try TrustAnchors.load(configuration.appleRootCertificates)
    let foreignRoots = roots.rootsOtherThanAppleRootCAG3
    if !foreignRoots.isEmpty && !configuration.appleEndpointsAreLoopback {
        logger.warning("APPSTORE_ROOT_CERTIFICATES trusts roots other than Apple Root CA - G3: whoever holds their keys can sign notifications this server believes",
                       metadata: ["roots": "\(foreignRoots.joined(separator: "; "))"])
    }
    let database = PostgresClient(
        configuration: .init(
            connectionString: configuration.databaseURL, maximumConnections: configuration.databasePoolSize,
            leaseTimeout: configuration.databaseLeaseTimeout, statementTimeout: configuration.databaseStatementTimeout
        ),
        logger: logger
    )
    let migrations = MigrationRunner(
        client: database,
        migrations: try Migration.load(from: SchemaDirectory.locate(explicit: configuration.schemaDirectory))
    )
    do {
        try await migrations.requireCurrent()
    } catch {
        try? await database.shutdown()
        throw error
    }

    // Two upstream clients, so the worker's backlog and the app backend's requests never
    // queue behind each other for transfer slots. The worker's runs every attempt's call at
    // once (one multi loop, one connection per transfer over HTTP/1.1, shared over HTTP/2).
    let workerHTTP = CurlHTTPClient(
        configuration: .init(maxConcurrentTransfers: max(2, configuration.workerConcurrency), caBundlePath: configuration.upstreamCABundle),
        logger: logger
    )
    let apiHTTP = CurlHTTPClient(
        configuration: .init(maxConcurrentTransfers: configuration.apiUpstreamConcurrency, caBundlePath: configuration.upstreamCABundle),
        logger: logger
    )
    let inbox = NotificationInbox(client: database)
    let workerSignal = WorkerSignal()
    func verifier(over http: CurlHTTPClient) -> ReceiptVerifier {
        ReceiptVerifier(
            http: http, productionURL: configuration.verifyReceiptURL, sandboxURL: configuration.verifyReceiptSandboxURL,
            timeout: configuration.verifyTimeout
        )
    }
    // Online checks ask Apple's OCSP responders over a client of their own: a slow responder
    // holds only its own transfers, and a chain answered "good" is not asked about for 15 min.
    let ocspHTTP = CurlHTTPClient(
        configuration: .init(maxConcurrentTransfers: 4, maxResponseBytes: 64 * 1024, caBundlePath: configuration.upstreamCABundle), logger: logger)
    let revocation = configuration.appStoreOnlineChecks ? OCSPResponderClient(http: ocspHTTP).revocationChecking : nil
    let signatures = SignedPayloadVerifier(roots: roots, revocation: revocation)
    for bundleID in configuration.apps.bundleIDs {
        if let app = configuration.apps.app(bundleID: bundleID), app.sharedSecret == nil, app.appAppleID == nil {
            logger.warning("app \(bundleID) has neither a shared secret nor app_apple_id: it accepts only Sandbox version 2 notifications")
        }
    }
    // The App Store Server API: the worker and /v1 each have transfers of their own, so one
    // cannot take the other's, and share each app's rate limiters (Apple's limit is per app).
    let appStoreHTTP = CurlHTTPClient(
        configuration: .init(maxConcurrentTransfers: max(2, configuration.workerConcurrency), caBundlePath: configuration.upstreamCABundle),
        logger: logger
    )
    let lookupHTTP = CurlHTTPClient(
        configuration: .init(maxConcurrentTransfers: configuration.apiUpstreamConcurrency, caBundlePath: configuration.upstreamCABundle),
        logger: logger
    )
    let appStoreAPI = try AppStoreAPIDirectory(configuration: configuration, http: appStoreHTTP, verifier: signatures, logger: logger)
    let lookupAPI = appStoreAPI.over(lookupHTTP)
    // The attempt's upstream work stops at its deadline, well inside the lease, so its outcome
    // is recorded while the claim is its own (the database work after it is bounded too).
    let workerLease = configuration.workerLease ?? configuration.verifyTimeout * 2 + .seconds(30)
    let processor = NotificationProcessor(
        database: database, verifier: verifier(over: workerHTTP), signatures: signatures, apps: configuration.apps,
        retryPolicy: environment.retryPolicy, api: appStoreAPI, attemptDeadline: NotificationWorker.attemptDeadline(lease: workerLease)
    )
    let worker = NotificationWorker(
        inbox: inbox, processor: processor, signal: workerSignal,
        configuration: .init(concurrency: configuration.workerConcurrency, lease: workerLease, pollInterval: environment.workerPollInterval),
        logger: logger
    )

    // A client of its own: deliveries never queue behind verifyReceipt calls (and back).
    let webhookHTTP = CurlHTTPClient(
        configuration: .init(maxConcurrentTransfers: configuration.webhookConcurrency, caBundlePath: configuration.upstreamCABundle),
        logger: logger
    )
    let webhooks = WebhookDelivery(
        outbox: WebhookOutbox(client: database), sender: WebhookSender(http: webhookHTTP, timeout: configuration.webhookTimeout),
        apps: configuration.apps,
        configuration: .init(
            concurrency: configuration.webhookConcurrency,
            lease: configuration.webhookLease ?? configuration.webhookTimeout + .seconds(30),
            pollInterval: environment.workerPollInterval, retry: environment.webhookRetryPolicy
        ),
        logger: logger
    )
    let retention = RetentionService(
        retention: ReceiptRetention(client: database), days: configuration.retentionDays, dropSigned: configuration.retentionDropSigned,
        interval: environment.retentionInterval, logger: logger
    )

    let router = Router(context: ServerRequestContext.self)
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: ConnectionCloseMiddleware())
    router.add(middleware: ErrorMappingMiddleware())
    HealthController(readiness: ReadinessCache(migrations: migrations)).addRoutes(to: router)
    MetricsController(registry: environment.metricsRegistry, token: configuration.metricsToken).addRoutes(to: router)
    // Group commit: a few batches in flight, each taking what arrived meanwhile; the rest of
    // the pool stays for the worker and the query API.
    let intakeBatcher = IntakeBatcher(
        inbox: inbox,
        configuration: .init(
            maximumBatchesInFlight: max(1, min(4, configuration.databasePoolSize / 4)),
            queueTimeout: configuration.databaseLeaseTimeout
        ),
        logger: logger,
        onStored: { await workerSignal.signal() }
    )
    let largeBodies = LargeBodyLane()
    NotificationIntakeController(
        parser: NotificationIntakeParser(apps: configuration.apps),
        signed: SignedNotificationIntake(
            verifier: signatures, apps: configuration.apps, freshness: configuration.notificationFreshness, now: environment.intakeClock), batcher: intakeBatcher,
        maxBodyBytes: configuration.maxBodyBytes, largeBodies: largeBodies
    ).addRoutes(to: router)

    // Reads store the answers they computed through this writer, off the request.
    let (readAnswers, answerWriter) = ReadAnswers(database: database, logger: logger).writingInBackground(onOutcome: ReadAnswerMetrics.recordWrites)
    if let token = configuration.adminToken {
        let api = router.group("v1").add(middleware: AdminTokenMiddleware(token: token))
        SubscriptionsController(answers: readAnswers).addRoutes(to: api)
        let lookup = TransactionLookup(
            database: database, reader: SubscriptionReader(client: database), api: lookupAPI, inbox: inbox,
            workerSignal: workerSignal, wait: configuration.receiptWait
        )
        TransactionsController(
            database: database, reader: SubscriptionReader(client: database), signatures: signatures, apps: configuration.apps,
            lookup: lookup, maxBodyBytes: configuration.maxBodyBytes
        ).addRoutes(to: api)
        ReceiptsController(
            database: database, reader: SubscriptionReader(client: database), verifier: verifier(over: apiHTTP),
            receiptWait: configuration.receiptWait, apps: configuration.apps, lookup: lookup,
            inbox: inbox, workerSignal: workerSignal, maxBodyBytes: configuration.maxBodyBytes
        ).addRoutes(to: api)
        SubscribersController(
            answers: readAnswers, verifier: verifier(over: apiHTTP), apps: configuration.apps,
            eligibility: EligibilityService(database: database, policy: configuration.eligibilityPolicy, readAnswers: readAnswers),
            lookup: lookup, maxBodyBytes: configuration.maxBodyBytes
        ).addRoutes(to: api)
    } else {
        logger.notice("ADMIN_TOKEN is not set: the query API (/v1/...) is off and answers 404")
    }

    var services: [any Service] = [
        ShutdownService(name: "database") { try await database.shutdown() },
        // Before the database closes: entries still queued answer 503 (Apple retries them);
        // batches already sent finish and answer.
        ShutdownService(name: "intake") {
            intakeBatcher.close()
            try await largeBodies.shutdown()
        },
        // Before the database closes: answers computed by the last reads are still written.
        ShutdownService(name: "read-answers") {
            answerWriter.close()
            await answerWriter.flush()
        },
        ShutdownService(name: "upstream-http") {
            try await workerHTTP.shutdown()
            try await apiHTTP.shutdown()
            try await webhookHTTP.shutdown()
            try await appStoreHTTP.shutdown()
            try await lookupHTTP.shutdown()
            try await ocspHTTP.shutdown()
        },
    ]
    if environment.runsWorker && configuration.workerConcurrency > 0 {
        services.append(worker)
        services.append(webhooks)
        services.append(retention)
    } else if configuration.workerConcurrency == 0 {
        logger.notice("WORKER_CONCURRENCY is 0: this process takes notifications but does not process them")
    }
    let onServerRunning = environment.onServerRunning
    // Per connection: a cap per client address, and a deadline for each request to arrive whole.
    let connectionsPerAddress = ConnectionsPerAddress(cap: configuration.httpMaxConnectionsPerAddress)
    let requestTimeout = TimeAmount(configuration.httpRequestTimeout)
    return Application(
        router: router,
        server: .http1(configuration: .init(
            additionalChannelHandlers: [
                ConnectionsPerAddressHandler(registry: connectionsPerAddress, onRefusal: ConnectionGuardMetrics.addressAtCap),
                RequestReadDeadlineHandler(limit: requestTimeout, onExpiry: ConnectionGuardMetrics.requestTimedOut),
            ],
            idleTimeout: TimeAmount(configuration.httpIdleTimeout)
        )),
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: "subscriptiond",
            availableConnectionsDelegate: MaximumAvailableConnections(configuration.httpMaxConnections, logger: logger)
        ),
        services: services,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger
    )
}
