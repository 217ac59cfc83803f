import AppStore
import Foundation
import Subscriptions

/// The catalog the eligibility table asks about.
///
/// Group 20500000 "pro": monthly (free trial), yearly (pay up front), weekly (no offer).
/// Group 20600000 "plus": monthly (pay as you go). Group 20700000 "lite": monthly (free trial).
/// A consumable outside any group. `legacy.monthly` and `old.monthly` are deliberately absent.
enum EligibilityFixture {
    static let pro = "20500000"
    static let plus = "20600000"
    static let lite = "20700000"

    static let catalog = ProductCatalog(products: [
        subscription("pro.monthly", group: pro, period: "P1M", offer: .freeTrial, offerPeriod: "P1W"),
        subscription("pro.yearly", group: pro, period: "P1Y", offer: .payUpFront, offerPeriod: "P3M", price: 9.99),
        subscription("pro.weekly", group: pro, period: "P1W", offer: nil),
        subscription("plus.monthly", group: plus, period: "P1M", offer: .payAsYouGo, offerPeriod: "P1M", periods: 3, price: 0.99),
        subscription("lite.monthly", group: lite, period: "P1M", offer: .freeTrial, offerPeriod: "P2W"),
        Product(productID: "coins.100", bundleID: "com.example.app", type: .consumable),
    ])

    static func subscription(
        _ id: String,
        group: String,
        period: String,
        offer: IntroPaymentMode?,
        offerPeriod: String = "P1W",
        periods: Int = 1,
        price: Decimal = 0
    ) -> Product {
        Product(
            productID: id,
            bundleID: "com.example.app",
            type: .autoRenewable,
            subscriptionGroupID: group,
            period: ISO8601Duration(period),
            introOffer: offer.map { IntroOffer(paymentMode: $0, period: ISO8601Duration(offerPeriod)!, periods: periods, price: price) }
        )
    }
}

/// One transaction of the customer, days counted from the test clock's `t0`.
///
/// `group` is what Apple reported (`subscription_group_identifier`); `nil` like many old receipts.
func purchase(
    _ id: String,
    of product: String,
    original: String? = nil,
    from: Double,
    to: Double?,
    trial: Bool = false,
    intro: Bool = false,
    upgraded: Bool = false,
    refundedOn: Double? = nil,
    familyShared: Bool = false,
    group: String? = nil,
    environment: AppStoreEnvironment = .production
) -> TransactionFact {
    TransactionFact(
        transactionID: id,
        originalTransactionID: original ?? id,
        productID: product,
        bundleID: "com.example.app",
        environment: environment,
        subscriptionGroupID: group,
        purchaseDate: day(from),
        expiresDate: to.map(day),
        isTrialPeriod: trial,
        isInIntroOfferPeriod: intro,
        isUpgraded: upgraded,
        cancellationDate: refundedOn.map(day),
        cancellationReason: refundedOn == nil ? nil : "0",
        ownershipType: familyShared ? "FAMILY_SHARED" : "PURCHASED"
    )
}

/// A renewal statement in billing retry for `original`, said on day `observedOn`.
func retrying(_ original: String, graceUntil: Double?, observedOn: Double, environment: AppStoreEnvironment = .production) -> RenewalFact {
    RenewalFact(
        originalTransactionID: original,
        bundleID: "com.example.app",
        environment: environment,
        autoRenewStatus: true,
        expirationIntent: .billingError,
        isInBillingRetryPeriod: true,
        gracePeriodExpiresDate: graceUntil.map(day),
        observedAt: day(observedOn)
    )
}
