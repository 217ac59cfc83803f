import Foundation

/// The fields of a Get Retention Message request, Apple's `DecodedRealtimeRequestBody`: what
/// the App Store asks a developer's server while a customer looks at a subscription they
/// may cancel.
public struct RealtimeRequestFields: Sendable, Hashable {
    /// The subscription the customer is looking at.
    public var originalTransactionID: String
    /// The app's Apple ID (`appAppleId`), as App Store Connect shows it.
    public var appAppleID: Int
    /// The subscription's product.
    public var productID: String
    /// The customer's locale, like `en-US`.
    public var userLocale: String
    /// A UUID naming this request.
    public var requestIdentifier: UUID
    /// `Production` or `Sandbox`.
    public var environment: SimEnvironment
    /// When Apple signed the request (`signedDate`, in milliseconds on the wire).
    public var signedDate: Date

    /// A request from its fields; a fresh request identifier, the sandbox and now by default.
    public init(
        originalTransactionID: String, appAppleID: Int, productID: String, userLocale: String = "en-US",
        requestIdentifier: UUID = UUID(), environment: SimEnvironment = .sandbox, signedDate: Date = Date()
    ) {
        self.originalTransactionID = originalTransactionID
        self.appAppleID = appAppleID
        self.productID = productID
        self.userLocale = userLocale
        self.requestIdentifier = requestIdentifier
        self.environment = environment
        self.signedDate = signedDate
    }

    /// The payload JSON, keys in Apple's order.
    var payload: JSONValue {
        .object([
            ("originalTransactionId", .string(originalTransactionID)),
            ("appAppleId", .int(appAppleID)),
            ("productId", .string(productID)),
            ("userLocale", .string(userLocale)),
            ("requestIdentifier", .string(requestIdentifier.uuidString.lowercased())),
            ("environment", .string(environment.rawValue)),
            ("signedDate", .int(Int((signedDate.timeIntervalSince1970 * 1_000).rounded()))),
        ])
    }
}
