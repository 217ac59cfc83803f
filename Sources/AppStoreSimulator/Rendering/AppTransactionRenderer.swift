import Crypto
import Foundation

/// Writes StoreKit 2's `AppTransaction` payload: the app's own signed receipt, which names the
/// version the customer first downloaded (`originalApplicationVersion`).
enum AppTransactionRenderer {
    /// What one customer's AppTransaction says.
    struct Facts {
        var app: SimApp
        var environment: SimEnvironment
        var originalApplicationVersion: String
        var originalPurchaseDate: Date
        var appTransactionID: String
        var signedDate: Date
        /// The customer's name and the seed make the device fields stable.
        var customer: String
        var seed: UInt64
    }

    /// What the AppTransaction of the `number`-th customer `spec` of `app` says: the same
    /// `appTransactionId`, purchase date and device fields whenever it is signed (on the device
    /// when the customer is built, or by Get App Transaction Info at request time).
    static func facts(
        _ spec: CustomerSpec, app: SimApp, number: Int, originalApplicationVersion: String,
        installDate: Date, signedDate: Date, seed: UInt64
    ) -> Facts {
        Facts(
            app: app, environment: spec.environment, originalApplicationVersion: originalApplicationVersion,
            originalPurchaseDate: installDate, appTransactionID: IDAllocator(seed: seed, customerNumber: number).appTransactionID,
            signedDate: signedDate, customer: spec.name, seed: seed
        )
    }

    /// The payload, in the order of Apple's `AppTransaction` fields.
    static func payload(_ facts: Facts) -> JSONValue {
        let digest = Array(SHA384.hash(data: Array("device|\(facts.seed)|\(facts.customer)".utf8)))
        let nonce = Array(SHA256.hash(data: Array("nonce|\(facts.seed)|\(facts.customer)".utf8)))
        let high = nonce.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = nonce.dropFirst(8).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return .object([
            ("receiptType", .string(facts.environment.rawValue)),
            ("bundleId", .string(facts.app.bundleID)),
            ("appAppleId", .int(facts.app.appAppleID)),
            ("applicationVersion", .string(facts.app.bundleVersion)),
            ("originalApplicationVersion", .string(facts.originalApplicationVersion)),
            ("originalPurchaseDate", SignedTransactionRenderer.millis(facts.originalPurchaseDate)),
            ("receiptCreationDate", SignedTransactionRenderer.millis(facts.signedDate)),
            ("appTransactionId", .string(facts.appTransactionID)),
            ("originalPlatform", .string("iOS")),
            ("signedDate", SignedTransactionRenderer.millis(facts.signedDate)),
            ("deviceVerification", .string(Data(digest).base64EncodedString())),
            ("deviceVerificationNonce", .string(AppAccountToken.uuid(high, low))),
        ])
    }
}
