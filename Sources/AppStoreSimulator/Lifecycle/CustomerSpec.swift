/// Who a simulated customer is and which lifecycle they live through.
public struct CustomerSpec: Sendable, Hashable {
    /// Unique name; also the customer id and the `app_user_id` to link in subscriptiond.
    public var name: String
    /// The lifecycle.
    public var scenario: ScenarioKind
    /// Production or sandbox.
    public var environment: SimEnvironment
    /// The app; `nil` means the configuration's first app.
    public var bundleID: String?
    /// The first product bought; `nil` picks one that fits the scenario.
    public var productID: String?
    /// The product switched to (upgrade, downgrade, crossgrade) or bought again (resubscribe).
    public var targetProductID: String?
    /// Automatic renewals before the scenario's distinctive events.
    public var renewals: Int
    /// Which notification version Apple sends this customer's app.
    public var notificationVersion: NotificationVersion
    /// The lower-case UUID the app set at purchase (v2's `appAccountToken`), if any.
    public var appAccountToken: String?
    /// The version of the app the customer first downloaded; `nil` draws one that fits the
    /// scenario in apps with a grandfather rule (1.9, 2.0 or 10.1), else `1.0`.
    public var originalApplicationVersion: String?
    /// The storefront the customer shops in (`USA`, `DEU`, `JPN`, ...): prices and currency.
    public var storefront: String
    /// A `refund` scenario's refund is prorated (`REFUND_PRORATED`, by the unused share of the
    /// period) rather than full.
    public var proratedRefund: Bool
    /// Days between the lapse and the new purchase in `resubscribe` and `promotional-offer`;
    /// `nil`: one period of the product.
    public var lapseDays: Int?

    /// A customer from its parts.
    public init(
        name: String,
        scenario: ScenarioKind,
        environment: SimEnvironment = .production,
        bundleID: String? = nil,
        productID: String? = nil,
        targetProductID: String? = nil,
        renewals: Int = 2,
        notificationVersion: NotificationVersion = .v1,
        appAccountToken: String? = nil,
        originalApplicationVersion: String? = nil,
        storefront: String = SimStorefront.usa.code,
        proratedRefund: Bool = false,
        lapseDays: Int? = nil
    ) {
        self.name = name
        self.scenario = scenario
        self.environment = environment
        self.bundleID = bundleID
        self.productID = productID
        self.targetProductID = targetProductID
        self.renewals = renewals
        self.notificationVersion = notificationVersion
        self.appAccountToken = appAccountToken
        self.originalApplicationVersion = originalApplicationVersion
        self.storefront = storefront
        self.proratedRefund = proratedRefund
        self.lapseDays = lapseDays
    }
}
