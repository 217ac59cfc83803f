import Foundation

extension SignedTransactionRenderer {
    /// The payload of the one-time purchase `p`: Apple's `type` for its product, its price,
    /// no `expiresDate` and no subscription fields; a refund adds `revocationDate`,
    /// `revocationReason` and `revocationType`.
    static func payload(_ p: SimPurchase, _ context: Context) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("transactionId", .string(p.transactionID)),
            ("originalTransactionId", .string(p.transactionID)),
            ("bundleId", .string(context.app.bundleID)),
            ("productId", .string(p.productID)),
            ("purchaseDate", millis(p.purchaseDate)),
            ("originalPurchaseDate", millis(p.purchaseDate)),
            ("quantity", .int(p.quantity)),
            ("type", .string(p.kind.appleType)),
        ]
        if let token = context.appAccountToken {
            members.append(("appAccountToken", .string(token)))
        }
        if let appTransactionID = context.appTransactionID {
            members.append(("appTransactionId", .string(appTransactionID)))
        }
        members += [
            ("inAppOwnershipType", .string("PURCHASED")),
            ("signedDate", millis(context.signedDate)),
        ]
        if let revoked = p.cancellationDate, let type = p.revocationType {
            members.append(("revocationReason", .int(p.cancellationReason == "1" ? 1 : 0)))
            members.append(("revocationDate", millis(revoked)))
            members.append(("revocationType", .string(type)))
            if let percentage = p.refundPercentage, p.proratedRefund { members.append(("revocationPercentage", .int(percentage))) }
        }
        members += [
            ("environment", .string(context.environment.rawValue)),
            ("transactionReason", .string("PURCHASE")),
            ("storefront", .string(p.storefront)),
            ("storefrontId", .string(SimStorefront.named(p.storefront).id)),
            ("price", .int(p.priceMilliunits)),
            ("currency", .string(p.currency)),
        ]
        return .object(members)
    }
}
