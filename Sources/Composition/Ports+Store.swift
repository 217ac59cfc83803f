import Logging
import Postgres
import Settings
import Store
import StoredAnswers
import Subscriptions
import UseCases

// The Store's types are what the use cases' ports stand for in production; the conformances
// live here, in the composition root, the one place that sees both.
extension GrantStore: GrantRepository {}
extension SubscriberRemoval: SubscriberRemovalRepository {}
extension ConsumptionStore: ConsentRepository {}
extension IrregularActivityQueries: IrregularActivitySource {}
extension AppAccountTokenStore: AppAccountTokenRepository {}
extension AppleAccountReader: AppleAccountSource {}
extension ReadAnswers: CatalogSource {}

// The use cases over one database, as the composition root (and the tests that run them
// against a real PostgreSQL) build them.
extension ManualGrants {
    /// Grants kept in `database`.
    public init(database: PostgresClient) {
        self.init(store: GrantStore(client: database))
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
            appAccountTokens: AppAccountTokens(database: database, apps: apps), eligibilityPolicy: eligibilityPolicy)
    }

    /// Signatures for `apps` from `database` alone (a catalog read per generation of its own).
    public init(database: PostgresClient, apps: AppRegistry, eligibilityPolicy: EligibilityPolicy, logger: Logger) {
        self.init(
            database: database, apps: apps,
            readAnswers: ReadAnswers(database: database, policies: apps.entitlementPolicies, logger: logger),
            eligibilityPolicy: eligibilityPolicy)
    }
}
