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
            if let type = t.revocationType { members.append(("revocationType", .string(type))) }
            if let percentage = t.refundPercentage, !t.isFamilyShared { members.append(("revocationPercentage", .int(percentage))) }
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
            ("storefront", .string(t.storefront)),
            ("storefrontId", .string(SimStorefront.named(t.storefront).id)),
            ("price", .int(t.charge.milliunits)),
            ("currency", .string(t.charge.currency)),
        ]
        if let offer {
            members.append(("offerDiscountType", .string(discountType(t, offer))))
            members.append(("offerPeriod", .string(offerPeriod(offer).description)))
        } else if let redeemed = t.offer {
            members.append(("offerDiscountType", .string(redeemed.discountType)))
            if let period = product?.period { members.append(("offerPeriod", .string(period.description))) }
        }
        if let product, let periods = product.commitmentPeriods, periods > 0 {
            members.append(("billingPlanType", .string("MONTHLY")))
            members.append(("commitmentInfo", commitmentInfo(t, product: product, periods: periods)))
        }
        return .object(members)
    }

    /// `commitmentInfo` of a transaction of a product billed through a commitment of
    /// `periods` periods: which charge of its commitment it is, when the commitment ends, and
    /// what the whole commitment costs. Commitments follow each other from the original purchase.
    static func commitmentInfo(_ t: SimTransaction, product: SimProduct, periods: Int) -> JSONValue {
        // Whole periods from the original purchase to this one (bounded: a century of months).
        var index = 0
        while index < 1_200, product.period.end(from: t.originalPurchaseDate, count: index + 1) <= t.purchaseDate.addingTimeInterval(1) {
            index += 1
        }
        let commitmentStart = product.period.end(from: t.originalPurchaseDate, count: index / periods * periods)
        return .object([
            ("billingPeriodNumber", .int(index % periods + 1)),
            ("totalBillingPeriods", .int(periods)),
            ("commitmentExpiresDate", millis(product.period.end(from: commitmentStart, count: periods))),
            ("commitmentPrice", .int(t.charge.milliunits * periods)),
        ])
    }

    /// v2's `offerPeriod`: the time one payment of the introductory offer covers (the whole
    /// offer for a free trial or payment up front, one period when paying as you go).
    static func offerPeriod(_ offer: IntroOffer) -> ISODuration {
        offer.paymentMode == .payAsYouGo ? offer.period : offer.period.times(offer.periods)
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
