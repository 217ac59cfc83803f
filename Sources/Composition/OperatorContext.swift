import AppStoreServerAPI
import AppStoreSignature
import Foundation
import Logging
import Postgres
import Settings
import Store
import StoredAnswers
import Subscriptions
import UseCases

/// What an operator command (`subscriptionctl`) works with: the deployment's database,
/// reached only through the Store's facades and the use cases built on them, so the CLI
/// neither holds a database client nor writes SQL. One per command; `shutdown()` at the end.
public struct OperatorContext: Sendable {
    private let database: PostgresClient
    /// The apps' entitlement policies, which subscriber reads are judged under.
    private let policies: EntitlementPolicies
    /// What prices purchases and estimates their proceeds in what the commands show.
    public let pricing: PurchasePricing

    /// A context on the database at `databaseURL`, with the few connections a command needs.
    public init(
        databaseURL: String, policies: EntitlementPolicies = EntitlementPolicies(), pricing: PurchasePricing = PurchasePricing(),
        logger: Logger
    ) {
        database = PostgresClient(
            configuration: .init(connectionString: databaseURL, maximumConnections: 4, applicationName: "subscriptionctl"),
            logger: logger)
        self.policies = policies
        self.pricing = pricing
    }

    /// Closes the database connections.
    public func shutdown() async {
        try? await database.shutdown()
    }

    /// The inbox: list, show, replay, discard.
    public var inbox: InboxQueries { InboxQueries(client: database) }
    /// The webhook outbox.
    public var webhooks: WebhookQueries { WebhookQueries(client: database) }
    /// Counts over the inbox and the subscriptions.
    public var stats: StatsQueries { StatsQueries(client: database) }
    /// The product catalog.
    public var products: ProductStore { ProductStore(client: database) }
    /// Subscriptions as the query API reads them.
    public var subscriptions: SubscriptionReader { SubscriptionReader(client: database) }
    /// The stored read answers.
    public var answers: AnswerStore {
        AnswerStore(client: database, format: ReadAnswers.storedFormat(policies: policies, pricing: pricing))
    }
    /// The read answers: the subscriber and entitlements documents, and rebuilding them.
    public func readAnswers(logger: Logger) -> ReadAnswers {
        ReadAnswers(database: database, policies: policies, pricing: pricing, logger: logger)
    }
    /// API keys (`keys create/list/revoke`), limited to the `configuredApps`.
    public func apiKeys(configuredApps: Set<String>) -> APIKeys {
        APIKeys(repository: APIKeyStore(client: database), configuredApps: configuredApps)
    }
    /// Console users (`console-user add/list/remove`).
    public var consoleUsers: ConsoleUsers { ConsoleUsers(repository: ConsoleUserStore(client: database)) }
    /// Exchange rates into `reportCurrency` (`rates import/list`).
    public func exchangeRates(reportCurrency: String) -> ExchangeRateImport {
        ExchangeRateImport(repository: ExchangeRateStore(client: database), reportCurrency: reportCurrency)
    }
    /// The reports (`subscriptionctl report`), in `money`'s report currency.
    public func reports(money: MoneySettings) -> Reports {
        Reports(rollups: ReportRollupStore(client: database), rates: exchangeRates(reportCurrency: money.reportCurrency))
    }
    /// Counting the rollups (`reports rebuild`, `reports status`), with `money`'s tax rates and
    /// Small Business Program periods.
    public func reportRollups(money: MoneySettings, logger: Logger) -> ReportRollupCounting {
        ReportRollupCounting(rollups: ReportRollupStore(client: database), catalog: readAnswers(logger: logger), money: money)
    }
    /// Manual grants.
    public var manualGrants: ManualGrants { ManualGrants(database: database) }
    /// Finding customers and reading their timelines (`subscriber timeline`).
    public var customers: CustomerDirectory { CustomerDirectory(database: database) }
    /// Forgetting users and removing links.
    public var forgetting: SubscriberForgetting { SubscriberForgetting(database: database) }
    /// Irregular activity: users fed by many Apple accounts, purchases linked to many users.
    public var irregularActivity: IrregularActivity { IrregularActivity(database: database) }
    /// Notification history backfill runs.
    public var backfillRuns: BackfillStore { BackfillStore(client: database) }
    /// `notifications backfill` for `apps`.
    public func backfill(apps: AppRegistry) -> NotificationBackfill { NotificationBackfill(store: backfillRuns, apps: apps) }
    /// Revalidation runs and candidates.
    public var revalidations: RevalidationStore { RevalidationStore(client: database) }

    /// Everything stored about one subscription, or nil when there is none.
    public func story(originalTransactionID: String, now: Date = Date()) async throws -> SubscriptionStory? {
        try await SubscriptionStory.load(originalTransactionID: originalTransactionID, client: database, now: now)
    }

    /// Applies `migrations` (or says what it would).
    public func migrations(_ migrations: [Migration]) -> MigrationRunner {
        MigrationRunner(client: database, migrations: migrations)
    }

    /// Intro-offer eligibility as the query API answers it.
    public func eligibility(policy: EligibilityPolicy, logger: Logger) -> EligibilityService {
        EligibilityService(policy: policy, readAnswers: readAnswers(logger: logger))
    }

    /// `revalidate`.
    public func revalidator(evidence: AppleEvidence, apps: AppRegistry, concurrency: Int, logger: Logger) -> Revalidator {
        Revalidator(database: database, evidence: evidence, apps: apps, concurrency: concurrency, logger: logger)
    }

    /// Finish Transaction states (`subscriber show`).
    public var transactionFinishes: TransactionFinishStore { TransactionFinishStore(client: database) }

    /// `consumption list` and `show`.
    public var consumptionRequests: ConsumptionStore { ConsumptionStore(client: database) }

    /// `consumption send`.
    public func consumptionAnswers(api: AppStoreAPIDirectory?, apps: AppRegistry) -> ConsumptionAnswers {
        ConsumptionAnswers(database: database, api: api, apps: apps)
    }

    /// `lookup-order`.
    public func orderLookup(evidence: AppleEvidence, apps: AppRegistry) -> OrderLookup {
        OrderLookup(database: database, evidence: evidence, apps: apps)
    }

    /// `import FILE.csv`, `concurrency` rows at once.
    public func customerImport(
        evidence: AppleEvidence, receiptProof: AppReceiptVerifier, apps: AppRegistry, concurrency: Int, logger: Logger
    ) -> CustomerImport {
        CustomerImport(
            database: database, evidence: evidence, receiptProof: receiptProof, apps: apps, concurrency: concurrency, logger: logger)
    }

    /// `refunds`.
    public func refundHistory(evidence: AppleEvidence, apps: AppRegistry) -> RefundHistory {
        RefundHistory(database: database, evidence: evidence, apps: apps)
    }

    /// `purge --environment Xcode`.
    public var xcodePurchases: XcodePurchasePurge { XcodePurchasePurge(client: database) }

    /// `extend`.
    public func renewalExtensions(api: AppStoreAPIDirectory?, evidence: AppleEvidence, apps: AppRegistry) -> RenewalExtensions {
        RenewalExtensions(database: database, api: api, evidence: evidence, apps: apps)
    }

    /// `set-app-account-token`: Set App Account Token at Apple, then link as a token would.
    public func appAccountTokenAssignment(evidence: AppleEvidence, apps: AppRegistry, logger: Logger) -> AppAccountTokenAssignment {
        AppAccountTokenAssignment(
            tokens: AppAccountTokens(database: database, apps: apps),
            sync: sync(evidence: evidence, apps: apps, concurrency: 1, logger: logger), evidence: evidence, logger: logger)
    }

    /// `sync`.
    public func sync(evidence: AppleEvidence, apps: AppRegistry, concurrency: Int, logger: Logger) -> SubscriptionSync {
        SubscriptionSync(database: database, evidence: evidence, apps: apps, concurrency: concurrency, logger: logger)
    }
}
