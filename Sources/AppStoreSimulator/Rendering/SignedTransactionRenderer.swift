import Foundation

/// Writes v2's decoded transaction payload (`JWSTransactionDecodedPayload`): ids as strings,
/// dates as millisecond numbers.
enum SignedTransactionRenderer {
    /// What the payloads need besides the transaction itself.
    struct Context {
        var app: SimApp
        var environment: SimEnvironment
        var catalog: ProductCatalog
        var appAccountToken: String?
        /// The customer's `appTransactionId` (one per Apple account and app; nil in a TEST notification).
        var appTransactionID: String? = nil
        var signedDate: Date
    }

    /// The payload of `t`.
    static func payload(_ t: SimTransaction, _ context: Context) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("transactionId", .string(t.transactionID)),
            ("originalTransactionId", .string(t.originalTransactionID)),
            ("webOrderLineItemId", .string(t.webOrderLineItemID)),
            ("bundleId", .string(context.app.bundleID)),
            ("productId", .string(t.productID)),
            ("subscriptionGroupIdentifier", .string(t.groupID)),
            ("purchaseDate", millis(t.purchaseDate)),
            ("originalPurchaseDate", millis(t.originalPurchaseDate)),
            ("expiresDate", millis(t.expiresDate)),
            ("quantity", .int(1)),
            ("type", .string("Auto-Renewable Subscription")),
        ]
        if let token = context.appAccountToken {
            members.append(("appAccountToken", .string(token)))
        }
        if let appTransactionID = context.appTransactionID {
            members.append(("appTransactionId", .string(appTransactionID)))
        }
        members += [
            ("inAppOwnershipType", .string(t.ownershipType)),
            ("signedDate", millis(context.signedDate)),
        ]
        if t.isRefunded, let revoked = t.cancellationDate {
            members.append(("revocationReason", .int(t.cancellationReason == "1" ? 1 : 0)))
            members.append(("revocationDate", millis(revoked)))
        }
        if t.isUpgraded {
            members.append(("isUpgraded", .bool(true)))
        }
        let product = context.catalog.product(t.productID)
        let offer = (t.isTrialPeriod || t.isInIntroOfferPeriod) ? product?.introOffer : nil
        if offer != nil {
            members.append(("offerType", .int(1)))
        } else if let redeemed = t.offer {
            members.append(("offerType", .int(redeemed.kind.rawValue)))
            members.append(("offerIdentifier", .string(redeemed.identifier)))
        }
        members += [
            ("environment", .string(context.environment.rawValue)),
            ("transactionReason", .string(t.isRenewal ? "RENEWAL" : "PURCHASE")),
            ("storefront", .string("USA")),
            ("storefrontId", .string("143441")),
            ("price", .int(price(of: t, product: product, offer: offer))),
            ("currency", .string("USD")),
        ]
        if let offer {
            members.append(("offerDiscountType", .string(discountType(t, offer))))
        } else if let redeemed = t.offer {
            members.append(("offerDiscountType", .string(redeemed.discountType)))
        }
        return .object(members)
    }

    /// `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT`.
    static func discountType(_ t: SimTransaction, _ offer: IntroOffer) -> String {
        if t.isTrialPeriod { return "FREE_TRIAL" }
        switch offer.paymentMode {
        case .freeTrial: return "FREE_TRIAL"
        case .payAsYouGo: return "PAY_AS_YOU_GO"
        case .payUpFront: return "PAY_UP_FRONT"
        }
    }

    /// What the period cost, in milliunits of USD.
    static func price(of t: SimTransaction, product: SimProduct?, offer: IntroOffer?) -> Int {
        if t.isTrialPeriod { return 0 }
        if let offer { return milliunits(offer.price) }
        if let redeemed = t.offer { return redeemed.priceMilliunits }
        return product.map { milliunits($0.price) } ?? 0
    }

    /// `"4.99"` → 4990; anything unreadable → 0 (catalog prices are the simulator's own input).
    static func milliunits(_ decimal: String) -> Int {
        let parts = decimal.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = Int(parts[0]), (0...1_000_000_000).contains(whole) else { return 0 }
        var fraction = parts.count == 2 ? String(parts[1].prefix(3)) : ""
        guard fraction.allSatisfy(\.isASCII), fraction.allSatisfy(\.isNumber) else { return 0 }
        fraction += String(repeating: "0", count: 3 - fraction.count)
        return whole * 1_000 + (Int(fraction) ?? 0)
    }

    /// Milliseconds since 1970 as a JSON number.
    static func millis(_ date: Date) -> JSONValue {
        .int(Int((date.timeIntervalSince1970 * 1_000).rounded(.down)))
    }
}
