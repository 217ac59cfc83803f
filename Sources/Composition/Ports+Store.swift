import AppStoreServerAPI
import AppStoreSignature
import Logging
import Postgres
import ServiceSupport
import Settings
import Store
import StoredAnswers
import Subscriptions
import UseCases

// The Store's types (and the verifyReceipt client) are what the use cases' ports stand for in
// production; the conformances live here, in the composition root, the one place that sees both.
extension GrantStore: GrantRepository {}
extension APIKeyStore: APIKeyRepository {}
extension ConsoleUserStore: ConsoleUserRepository {}
extension ConsoleSessionStore: ConsoleSessionRepository {}
extension InboxQueries: ReplayableQueue {}
extension WebhookQueries: ReplayableQueue {}
extension CustomerQueries: CustomerRecords {}
extension PipelineQueries: PipelineSource {}
extension InboxQueries: NotificationListing {}
extension WebhookQueries: WebhookEventListing {}
extension ConsumptionStore: ConsumptionRequestListing {}
extension ConsumptionStore: ConsumptionReportRepository {}
extension AuditLogStore: AuditTrail {}
extension ExchangeRateStore: ExchangeRateRepository {}
extension SubscriberRemoval: SubscriberRemovalRepository {}
extension ConsumptionStore: ConsentRepository {}
extension IrregularActivityQueries: IrregularActivitySource {}
extension AppAccountTokenStore: AppAccountTokenRepository {}
extension AppleAccountReader: AppleAccountSource {}
extension TransactionFinishStore: TransactionFinishQueue {}
extension BatchWriter: RetentionAnswerRecording where Item == RetentionAnswerRecord {}
extension ImportJournalStore: CustomerImportJournal {}
extension ReadAnswers: CatalogSource {}
extension ReadAnswers: SubscriberDocumentSource {}
extension ReadAnswers: CustomerDocuments {}
extension SubscriptionStoryReader: SubscriptionStorySource {}
extension NotificationInbox: NotificationOutcomes {}
extension NotificationInbox: PurchaseQueue {}
extension StoredReceipts: StoredReceiptSource {}
extension ReceiptVerifier: ReceiptVerifying {}
extension ReportRollupStore.Counter: ReportRollupCounter {}
extension ReportRollupStore: ReportRollups {
    public func counting<T: Sendable>(
        wait: Bool, lockTimeout: Duration, _ body: @escaping @Sendable (any ReportRollupCounter) throws -> T
    ) async throws -> T? {
        try await withCounter(wait: wait, lockTimeout: lockTimeout) { counter in try body(counter) }
    }
}

// The use cases over one database, as the composition root (and the tests that run them
// against a real PostgreSQL) build them.
extension ManualGrants {
    /// Grants kept in `database`.
    public init(database: PostgresClient) {
        self.init(store: GrantStore(client: database))
    }
}

extension CustomerDirectory {
    /// Customers and their timelines in `database`.
    public init(database: PostgresClient) {
        self.init(records: CustomerQueries(client: database))
    }
}

extension PipelineHealth {
    /// The pipeline of `database`.
    public init(database: PostgresClient) {
        self.init(source: PipelineQueries(client: database))
    }
}

extension OperationsLists {
    /// The inbox, the webhook outbox and the refund requests of `database`.
    public init(database: PostgresClient) {
        self.init(
            notifications: InboxQueries(client: database), webhooks: WebhookQueries(client: database),
            consumptionRequests: ConsumptionStore(client: database))
    }
}

extension SubscriberForgetting {
    /// Forgetting in `database`.
    public init(database: PostgresClient) {
        self.init(store: SubscriberRemoval(client: database))
    }
}

extension ConsumptionConsents {
    /// Consents kept in `database`.
    public init(database: PostgresClient) {
        self.init(store: ConsumptionStore(client: database))
    }
}

extension IrregularActivity {
    /// Irregular activity in `database`.
    public init(database: PostgresClient) {
        self.init(queries: IrregularActivityQueries(client: database))
    }
}

extension AppAccountTokens {
    /// Tokens of `apps` kept in `database`.
    public init(database: PostgresClient, apps: AppRegistry) {
        self.init(store: AppAccountTokenStore(client: database), apps: apps)
    }
}

extension OfferSignatures {
    /// Signatures for `apps` from `database`, its catalog read through `readAnswers` (the
    /// process's, which keeps one catalog per generation).
    public init(database: PostgresClient, apps: AppRegistry, readAnswers: ReadAnswers, eligibilityPolicy: EligibilityPolicy) {
        self.init(
            apps: apps, catalog: readAnswers, accounts: AppleAccountReader(client: database),
            appAccountTokens: AppAccountTokens(database: database, apps: apps), eligibilityPolicy: eligibilityPolicy,
            audit: AuditLogStore(client: database))
    }

    /// Signatures for `apps` from `database` alone (a catalog read per generation of its own).
    public init(database: PostgresClient, apps: AppRegistry, eligibilityPolicy: EligibilityPolicy, logger: Logger) {
        self.init(
            database: database, apps: apps,
            readAnswers: ReadAnswers(database: database, policies: apps.entitlementPolicies, logger: logger),
            eligibilityPolicy: eligibilityPolicy)
    }
}

extension NotificationProcessor {
    /// The worker's attempts over `database`: its inbox, its stored receipts, its transactions.
    public init(
        database: PostgresClient, evidence: AppleEvidence, apps: AppRegistry, retryPolicy: RetryPolicy, attemptDeadline: Duration? = nil
    ) {
        self.init(
            database: database, inbox: NotificationInbox(client: database), receipts: StoredReceipts(client: database), evidence: evidence,
            apps: apps, retryPolicy: retryPolicy, attemptDeadline: attemptDeadline)
    }
}

extension PurchaseRecorder {
    /// Recording purchases in `database` (applied there, or queued in its inbox).
    public init(
        evidence: AppleEvidence, database: PostgresClient, answers: ReadAnswers, signatures: SignedPayloadVerifier,
        receiptProof: AppReceiptVerifier, apps: AppRegistry, wait: Duration, onQueued: @escaping @Sendable () async -> Void
    ) {
        self.init(
            evidence: evidence, applier: FactApplier(database: database, apps: apps), queue: NotificationInbox(client: database),
            answers: answers, signatures: signatures, receiptProof: receiptProof, apps: apps, wait: wait, onQueued: onQueued)
    }
}

extension Revalidator {
    /// Revalidation of the receipts stored in `database`.
    public init(database: PostgresClient, evidence: AppleEvidence, apps: AppRegistry, concurrency: Int, logger: Logger) {
        self.init(
            database: database, store: RevalidationStore(client: database), evidence: evidence, apps: apps, concurrency: concurrency,
            logger: logger)
    }
}

extension SubscriptionSync {
    /// `sync` of the subscriptions stored in `database`.
    public init(database: PostgresClient, evidence: AppleEvidence, apps: AppRegistry, concurrency: Int, logger: Logger) {
        self.init(
            applier: FactApplier(database: database, apps: apps), queries: SyncTargetQueries(client: database), evidence: evidence,
            concurrency: concurrency, logger: logger)
    }
}

extension OrderLookup {
    /// `lookup-order`, applying to `database`.
    public init(database: PostgresClient, evidence: AppleEvidence, apps: AppRegistry) {
        self.init(applier: FactApplier(database: database, apps: apps), evidence: evidence)
    }
}

extension CustomerImport {
    /// `import`, journaling in and applying to `database`.
    public init(
        database: PostgresClient, evidence: AppleEvidence, receiptProof: AppReceiptVerifier, apps: AppRegistry, concurrency: Int,
        logger: Logger
    ) {
        self.init(
            journal: ImportJournalStore(client: database), applier: FactApplier(database: database, apps: apps), evidence: evidence,
            receiptProof: receiptProof, apps: apps, concurrency: concurrency, logger: logger)
    }
}

extension RefundHistory {
    /// `refunds`, applying to `database`.
    public init(database: PostgresClient, evidence: AppleEvidence, apps: AppRegistry) {
        self.init(applier: FactApplier(database: database, apps: apps), evidence: evidence)
    }
}

extension RenewalExtensions {
    /// `extend`, recording in and applying to `database`.
    public init(database: PostgresClient, api: AppStoreAPIDirectory?, evidence: AppleEvidence, apps: AppRegistry) {
        self.init(
            store: RenewalExtensionStore(client: database), applier: FactApplier(database: database, apps: apps), api: api,
            evidence: evidence)
    }
}

extension ConsumptionAnswers {
    /// Answers to CONSUMPTION_REQUEST settled in `database`.
    public init(database: PostgresClient, api: AppStoreAPIDirectory?, apps: AppRegistry) {
        self.init(store: ConsumptionStore(client: database), api: api, apps: apps)
    }
}
