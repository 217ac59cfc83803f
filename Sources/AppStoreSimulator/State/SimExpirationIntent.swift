/// Why a subscription expired: Apple's `expiration_intent` codes and DESIGN.md's names.
public enum SimExpirationIntent: Int, Sendable, Hashable, CaseIterable {
    /// `"1"`: the customer turned auto-renew off.
    case customerCancelled = 1
    /// `"2"`: the renewal charge failed.
    case billingError = 2
    /// `"3"`: the customer did not agree to a price increase.
    case priceIncreaseDeclined = 3
    /// `"4"`: the product was not for sale at renewal.
    case productUnavailable = 4
    /// `"5"`: some other reason.
    case unknown = 5

    /// The name in subscriptiond's JSON (`customer_cancelled`, ...).
    public var name: String {
        switch self {
        case .customerCancelled: "customer_cancelled"
        case .billingError: "billing_error"
        case .priceIncreaseDeclined: "price_increase_declined"
        case .productUnavailable: "product_unavailable"
        case .unknown: "unknown"
        }
    }
}
