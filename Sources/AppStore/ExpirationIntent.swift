import Foundation

/// Why a subscription expired, as Apple's `expiration_intent` reports it.
public enum ExpirationIntent: String, Sendable, Codable, Hashable, CaseIterable {
    /// `1`: the customer turned off auto-renew.
    case customerCancelled = "customer_cancelled"
    /// `2`: the renewal charge failed.
    case billingError = "billing_error"
    /// `3`: the customer did not agree to a price increase.
    case priceIncreaseDeclined = "price_increase_declined"
    /// `4`: the product was not available for purchase at renewal time.
    case productUnavailable = "product_unavailable"
    /// `5`, or any code Apple adds later.
    case unknown

    /// Maps Apple's numeric code (`"1"`…`"5"`); any other non-empty code is `.unknown`.
    ///
    /// An empty string is `nil`: it says nothing, so it must not read as "unknown reason".
    public init?(appleCode: String) {
        switch AppleWhitespace.trimmed(appleCode) {
        case "": return nil
        case "1": self = .customerCancelled
        case "2": self = .billingError
        case "3": self = .priceIncreaseDeclined
        case "4": self = .productUnavailable
        default: self = .unknown
        }
    }
}
