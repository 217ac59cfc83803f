import AppStoreServerAPI
import AppStoreSignature
import Foundation
import HTTPClient
import Logging
import Postgres
import ServiceLifecycle
import ServiceSupport
import Settings
import Store
import StoredAnswers
import UseCases
import Webhooks

/// Everything `subscriptiond`'s edges and services are built from: the database pool, the
/// upstream clients, the verifier and the use cases over them, made once from the
/// configuration. The server's composition root wires routes and services from these and
/// never holds a database client itself.
public struct ServiceComponents: Sendable {
    /// The schema check `/health/ready` repeats.
    public let migrations: MigrationRunner
    /// Where intake stores notifications and the worker claims them.
    public let inbox: NotificationInbox
    /// The roots signed payloads must chain to (`APPSTORE_ROOT_CERTIFICATES`), read once.
    public let roots: AppleRootCertificates
    /// Verifies signed payloads at intake (and in API answers).
    public let signatures: SignedPayloadVerifier
    /// Processes one claimed notification.
    public let processor: NotificationProcessor
    /// How long a worker's claim keeps others away.
    public let workerLease: Duration
    /// `/v1/receipts`, `/v1/transactions`, and `/v1/eligibility` with a receipt.
    public let purchases: PurchaseRecorder
    /// Stored read answers, refreshed in the background by `answerWriter`.
    public let readAnswers: ReadAnswers
    public let answerWriter: AnswerWriter
    /// Intro-offer eligibility.
    public let eligibility: EligibilityService
    /// Offer signatures StoreKit enforces (eligibility JWS, promotional offers).
    public let offers: OfferSignatures
    /// `POST /v1/eligibility`: answers by app user or receipt, signed when asked.
    public let eligibilityQuestions: EligibilityQuestions
    /// Answers to CONSUMPTION_REQUEST, and the consents they need.
    public let consumptionAnswers: ConsumptionAnswers
    public let consumptionConsents: ConsumptionConsents
    /// What the app's backend knows of a purchase (`PUT /v1/purchases/{id}/consumption`).
    public let consumptionReports: ConsumptionReports
    /// `/v1/app-transactions`.
    public let appTransactions: AppTransactionRecorder
    /// Manual grants.
    public let grants: ManualGrants
    /// Forgetting users.
    public let forgetting: SubscriberForgetting
    /// App account tokens.
    public let appAccountTokens: AppAccountTokens
    /// The webhook outbox and the client that delivers from it.
    public let webhookOutbox: WebhookOutbox
    public let webhookSender: WebhookSender
    /// Removes receipts past their retention.
    public let receiptRetention: ReceiptRetention
    /// Makes the months of the partitioned tables ahead and drops finished old ones.
    public let partitions: PartitionMaintenance
    /// Moves stored statuses when time alone changes them.
    public let sweep: SubscriptionSweep
    /// Reviews users' entitlements after changes and when time ends them (`entitlement_changed`).
    public let entitlementReviews: EntitlementReviews
    /// Tells the reads when the replica (`DATABASE_READ_URL`) is fresh enough; nil without one.
    public let replicaMonitor: ReplicaMonitor?
    /// Who each `/v1` request is: the API keys (and `ADMIN_TOKEN`), reloaded every second.
    public let keyAuthentication: APIKeyAuthentication
    /// The business's numbers (`GET /v1/reports/{metric}`), read from the rollups.
    public let reports: Reports
    /// Keeps the rollups equal to the facts (the rollup job).
    public let reportRollups: ReportRollupCounting
    /// The console's sessions (sign-in, sign-out, idle expiry).
    public let consoleSessions: ConsoleSessions
    /// "Check with Apple" for one customer.
    public let customerRecheck: CustomerRecheck
    /// Putting dead notifications and webhook events back to work.
    public let deadWorkReplay: DeadWorkReplay
    /// API keys (the console's keys page).
    public let apiKeys: APIKeys
    /// Set App Account Token, then link (`PUT /v1/subscriptions/{id}/app-account-token`).
    public let appAccountTokenAssignment: AppAccountTokenAssignment
    /// A customer's whole story (the console's customer page).
    public let customerProfile: CustomerProfile
    /// Finding customers and reading their timelines.
    public let customerDirectory: CustomerDirectory
    /// The inbox and outbox, listed for the console.
    public let operationsLists: OperationsLists
    /// How the pipeline is doing (the console's overview).
    public let pipelineHealth: PipelineHealth
    /// The App Store's Get Retention Message requests (`POST /retention/appstore`).
    public let retentionMessages: RetentionMessages
    /// Finish Transaction for apps with `finish_transactions`, and delivery confirmations.
    public let transactionFinishing: TransactionFinishing
    /// Records what `retentionMessages` answered, off the request.
    public let retentionAnswerWriter: BatchWriter<RetentionAnswerRecord>

    private let database: PostgresClient
    private let readDatabase: PostgresClient?
    private let upstreams: [CurlHTTPClient]

    /// Opens the database (refusing a schema that is behind), the upstream clients and the
    /// use cases.
    ///
    /// - Parameters:
    ///   - retryPolicy: when failed notifications are tried again.
    ///   - onQueued: called whenever work is queued for the worker (to wake it).
    ///   - onAnswerWrite: told how each background write of read answers went (metrics).
    ///   - onUpstreamRequest: told of every upstream request: which upstream, how long, the
    ///     HTTP status (nil: no answer) (metrics).
    ///   - onRead: told which database each read went to, with a read replica (metrics).
    ///   - onRetentionAnswerWrite: told how each background write of retention answers went (metrics).
    ///   - onDatabaseConnect: told of every connection opened or not: the database
    ///     (`primary`, `replica`) and the server reached, nil when none was (metrics).
    public static func open(
        configuration: ServiceConfiguration, logger: Logger, retryPolicy: RetryPolicy,
        onQueued: @escaping @Sendable () async -> Void,
        onAnswerWrite: @escaping @Sendable (AnswerWriter.Outcome, Int) -> Void,
        onUpstreamRequest: @escaping @Sendable (_ upstream: String, _ duration: Duration, _ status: Int?) -> Void = { _, _, _ in },
        onRead: @escaping @Sendable (ReplicaRoute.Target) -> Void = { _ in },
        onRetentionAnswerWrite: @escaping @Sendable (BatchWriter<RetentionAnswerRecord>.Outcome, Int) -> Void = { _, _ in },
        onDatabaseConnect: @escaping @Sendable (_ database: String, _ server: String?) -> Void = { _, _ in }
    ) async throws -> ServiceComponents {
        // The roots and keys load (or stop startup) before the database is reached.
        let apple = try await AppleUpstreams.open(configuration: configuration, logger: logger, onRequest: onUpstreamRequest)
        let database = PostgresClient(
            configuration: .init(
                connectionString: configuration.databaseURL, maximumConnections: configuration.databasePoolSize,
                leaseTimeout: configuration.databaseLeaseTimeout, statementTimeout: configuration.databaseStatementTimeout,
                onConnect: { onDatabaseConnect("primary", $0) }),
            logger: logger)
        let migrations: MigrationRunner
        do {
            migrations = MigrationRunner(
                client: database, migrations: try Migration.load(from: SchemaDirectory.locate(explicit: configuration.schemaDirectory)))
            let ahead = try await migrations.requireCurrent()
            if !ahead.isEmpty {
                logger.warning(
                    "the database schema is ahead of this release (\(ahead.joined(separator: ", "))): a newer release migrated it; this one keeps working until the release after that one (docs/upgrading.md)"
                )
            }
        } catch {
            try? await database.shutdown()
            await apple.shutdown()
            throw error
        }
        let upstreams = apple.clients
        let (roots, signatures, appStoreAPI) = (apple.roots, apple.signatures, apple.appStoreAPI)
        // The worker and /v1 each have transfers of their own, so one cannot take the other's,
        // and share each app's rate limiters (Apple's limit is per app).
        let workerEvidence = apple.evidence
        let apiEvidence = apple.apiEvidence

        // The attempt's upstream work stops at its deadline, well inside the lease, so its outcome
        // is recorded while the claim is its own (the database work after it is bounded too).
        let workerLease = configuration.workerLease ?? configuration.verifyTimeout * 2 + .seconds(30)
        let processor = NotificationProcessor(
            database: database, evidence: workerEvidence, apps: configuration.apps, retryPolicy: retryPolicy,
            attemptDeadline: NotificationProcessor.attemptDeadline(lease: workerLease))
        // Reads store the answers they computed through this writer, off the request.
        var (readAnswers, answerWriter) = ReadAnswers(
            database: database, policies: configuration.apps.entitlementPolicies, pricing: configuration.money.purchasePricing,
            logger: logger
        )
        .writingInBackground(onOutcome: onAnswerWrite)
        // A read replica takes the /v1 reads while it is fresh enough; writes, and the answers
        // that follow the caller's own write, stay on the primary.
        let readDatabase = configuration.databaseReadURL.map { url in
            PostgresClient(
                configuration: .init(
                    connectionString: url, maximumConnections: configuration.databasePoolSize, applicationName: "subscriptiond-reads",
                    leaseTimeout: configuration.databaseLeaseTimeout, statementTimeout: configuration.databaseStatementTimeout,
                    onConnect: { onDatabaseConnect("replica", $0) }),
                logger: logger)
        }
        let replicaMonitor = readDatabase.map { replica in
            ReplicaMonitor(
                primary: database, replica: replica, route: ReplicaRoute(maxStaleness: configuration.databaseReadMaxLag, onRead: onRead),
                logger: logger)
        }
        if let readDatabase, let replicaMonitor {
            readAnswers = readAnswers.reading(from: readDatabase, route: replicaMonitor.route)
        }
        let purchases = PurchaseRecorder(
            evidence: apiEvidence, database: database, answers: readAnswers.followingWrites, signatures: signatures,
            receiptProof: apple.receiptProof, apps: configuration.apps,
            wait: configuration.receiptWait, onQueued: onQueued)
        let eligibility = EligibilityService(policy: configuration.eligibilityPolicy, readAnswers: readAnswers)
        let offers = OfferSignatures(
            database: database, apps: configuration.apps, readAnswers: readAnswers, eligibilityPolicy: configuration.eligibilityPolicy)
        let retentionAnswerWriter = BatchWriter<RetentionAnswerRecord>(
            onOutcome: { outcome, count, error in
                onRetentionAnswerWrite(outcome, count)
                if let error {
                    logger.warning("retention answers not recorded", metadata: [LogKey.error: "\(StoreFailure.reason(error))"])
                }
            },
            write: { try await RetentionAnswerStore(client: database).record($0) })
        let retentionMessages = RetentionMessages(
            apps: configuration.apps, verifier: signatures, accounts: AppleAccountReader(client: database), catalog: readAnswers,
            eligibilityPolicy: configuration.eligibilityPolicy, recorder: retentionAnswerWriter, logger: logger)
        do {
            // A rule naming a product the catalog lacks would never match, in silence.
            if let problem = try await retentionMessages.ruleProblem() { throw ConfigurationError("SUBSCRIPTIOND_CONFIG", problem) }
        } catch {
            try? await readDatabase?.shutdown()
            try? await database.shutdown()
            await apple.shutdown()
            throw error
        }
        return ServiceComponents(
            migrations: migrations, inbox: NotificationInbox(client: database), roots: roots, signatures: signatures, processor: processor,
            workerLease: workerLease, purchases: purchases, readAnswers: readAnswers, answerWriter: answerWriter,
            eligibility: eligibility, offers: offers,
            eligibilityQuestions: EligibilityQuestions(
                eligibility: eligibility, offers: offers, purchases: purchases, apps: configuration.apps),
            consumptionAnswers: ConsumptionAnswers(database: database, api: appStoreAPI, apps: configuration.apps),
            consumptionConsents: ConsumptionConsents(database: database),
            consumptionReports: ConsumptionReports(repository: ConsumptionStore(client: database)),
            appTransactions: AppTransactionRecorder(
                database: database, answers: readAnswers.followingWrites, signatures: signatures, apps: configuration.apps),
            grants: ManualGrants(database: database), forgetting: SubscriberForgetting(database: database),
            appAccountTokens: AppAccountTokens(database: database, apps: configuration.apps),
            webhookOutbox: WebhookOutbox(client: database),
            webhookSender: WebhookSender(http: upstreams.webhooks, timeout: configuration.webhookTimeout),
            receiptRetention: ReceiptRetention(client: database),
            partitions: PartitionMaintenance(client: database),
            sweep: SubscriptionSweep(client: database, webhookEvents: configuration.apps.webhookEvents),
            entitlementReviews: EntitlementReviews(
                client: database, policies: configuration.apps.entitlementPolicies, webhookEvents: configuration.apps.webhookEvents,
                apps: configuration.apps.bundleIDs),
            replicaMonitor: replicaMonitor,
            keyAuthentication: try await Self.keyAuthentication(database: database, adminToken: configuration.adminToken, logger: logger),
            reports: Reports(
                rollups: ReportRollupStore(client: database),
                rates: ExchangeRateImport(
                    repository: ExchangeRateStore(client: database), reportCurrency: configuration.money.reportCurrency)),
            reportRollups: ReportRollupCounting(
                rollups: ReportRollupStore(client: database), catalog: readAnswers.followingWrites, money: configuration.money),
            consoleSessions: ConsoleSessions(repository: ConsoleSessionStore(client: database), idle: configuration.consoleSessionIdle),
            customerRecheck: CustomerRecheck(
                sync: SubscriptionSync(
                    database: database, evidence: apiEvidence, apps: configuration.apps, concurrency: 4, logger: logger),
                audit: AuditLogStore(client: database)),
            deadWorkReplay: DeadWorkReplay(
                notifications: InboxQueries(client: database), webhooks: WebhookQueries(client: database),
                audit: AuditLogStore(client: database)),
            apiKeys: APIKeys(repository: APIKeyStore(client: database), configuredApps: Set(configuration.apps.bundleIDs)),
            appAccountTokenAssignment: AppAccountTokenAssignment(
                tokens: AppAccountTokens(database: database, apps: configuration.apps),
                sync: SubscriptionSync(database: database, evidence: apiEvidence, apps: configuration.apps, concurrency: 1, logger: logger),
                evidence: apiEvidence, logger: logger),
            customerProfile: CustomerProfile(
                records: readAnswers.followingWrites, stories: SubscriptionStoryReader(client: database),
                grants: ManualGrants(database: database),
                eligibility: eligibility),
            customerDirectory: CustomerDirectory(database: database),
            operationsLists: OperationsLists(database: database),
            pipelineHealth: PipelineHealth(database: database),
            retentionMessages: retentionMessages,
            transactionFinishing: TransactionFinishing(
                queue: TransactionFinishStore(client: database), api: appStoreAPI, apps: configuration.apps),
            retentionAnswerWriter: retentionAnswerWriter,
            database: database, readDatabase: readDatabase, upstreams: upstreams.all)
    }

    /// The keys as the database holds them at startup; when they cannot be read, `ADMIN_TOKEN`
    /// alone until the first reload that succeeds.
    private static func keyAuthentication(
        database: PostgresClient, adminToken: Secret?, logger: Logger
    ) async throws
        -> APIKeyAuthentication
    {
        let authentication = APIKeyAuthentication(repository: APIKeyStore(client: database), adminToken: adminToken?.revealed)
        do {
            try await authentication.refresh()
        } catch {
            logger.warning(
                "the API keys could not be read; retrying every second", metadata: [LogKey.error: "\(StoreFailure.reason(error))"])
        }
        return authentication
    }

    /// The database pool at this moment: connections leased, idle, and requests waiting for one.
    public func databaseConnections() async -> (inUse: Int, idle: Int, waiting: Int) {
        let pool = await database.poolStatistics()
        return (pool.inUse, pool.idle, pool.waiting)
    }

    /// The database clients as services of the group: placed before everything that uses
    /// them, they close last (a group stops in reverse order); the replica's before the primary's.
    public var databaseServices: [any Service] { [database] + (readDatabase.map { [$0] } ?? []) }

    /// The upstream libcurl clients as services (transfers still running fail when they stop).
    public var upstreamServices: [any Service] { upstreams }
}
