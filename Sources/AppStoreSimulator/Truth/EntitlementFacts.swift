/// What the entitlement rule reads about one customer at one moment.
public struct EntitlementFacts: Sendable, Hashable {
    /// The customer's app (its grandfather rule and sandbox setting).
    public var app: SimApp
    /// Where the customer's purchases and receipt come from.
    public var environment: SimEnvironment
    /// Subscriptions and purchases at that moment.
    public var state: CustomerState
    /// The original application version subscriptiond recorded for the customer, if any.
    public var originalApplicationVersion: String?

    /// Facts from their parts.
    public init(app: SimApp, environment: SimEnvironment, state: CustomerState, originalApplicationVersion: String?) {
        self.app = app
        self.environment = environment
        self.state = state
        self.originalApplicationVersion = originalApplicationVersion
    }

    /// Whether purchases count at all: sandbox ones only when the app grants them.
    var purchasesCount: Bool {
        environment == .production || app.sandboxEntitlement == .grant
    }
}
