import Foundation

/// Writes v2's decoded renewal info payload (`JWSRenewalInfoDecodedPayload`).
enum SignedRenewalRenderer {
    /// The renewal info of `subscription`, signed at `signedDate`; `catalog` prices the renewal.
    static func payload(
        _ subscription: SimSubscription, environment: SimEnvironment, catalog: ProductCatalog, signedDate: Date
    ) -> JSONValue {
        let r = subscription.renewal
        var members: [(String, JSONValue)] = []
        if let intent = r.expirationIntent {
            members.append(("expirationIntent", .int(intent.rawValue)))
        }
        members += [
            ("originalTransactionId", .string(r.originalTransactionID)),
            ("autoRenewProductId", .string(r.autoRenewProductID)),
            ("productId", .string(r.productID)),
            ("autoRenewStatus", .int(r.autoRenewStatus ? 1 : 0)),
        ]
        // Like v1's pending renewal info, Apple leaves the flag out until a period has ended.
        if r.expirationIntent != nil || r.isInBillingRetryPeriod {
            members.append(("isInBillingRetryPeriod", .bool(r.isInBillingRetryPeriod)))
        }
        if let graceEnd = r.gracePeriodExpiresDate, r.isInBillingRetryPeriod {
            members.append(("gracePeriodExpiresDate", SignedTransactionRenderer.millis(graceEnd)))
        }
        if let offers = winBackOfferIDs(subscription, at: signedDate) {
            members.append(("eligibleWinBackOfferIds", .array(offers.map { .string($0) })))
        }
        members += [
            ("signedDate", SignedTransactionRenderer.millis(signedDate)),
            ("environment", .string(environment.rawValue)),
            ("recentSubscriptionStartDate", SignedTransactionRenderer.millis(recentStart(subscription))),
            ("renewalDate", SignedTransactionRenderer.millis(subscription.latest.expiresDate)),
        ]
        // The next period at the full price of the product it renews to, where the customer shops.
        if let next = catalog.product(r.autoRenewProductID)?.charge(in: subscription.latest.storefront) {
            members += [("renewalPrice", .int(next.milliunits)), ("currency", .string(next.currency))]
        }
        return .object(members)
    }

    /// The win-back offers Apple would show now: one per product, for a customer who cancelled
    /// and whose last period has ended (Apple leaves the field out when there are none).
    static func winBackOfferIDs(_ subscription: SimSubscription, at date: Date) -> [String]? {
        guard subscription.renewal.expirationIntent == .customerCancelled, subscription.latest.expiresDate <= date else { return nil }
        return [winBackOfferID(productID: subscription.latest.productID)]
    }

    /// The simulator's win-back offer of `productID`.
    static func winBackOfferID(productID: String) -> String {
        productID + ".winback"
    }

    /// The start of the newest run of periods, ignoring lapses shorter than 60 days (Apple's rule).
    static func recentStart(_ subscription: SimSubscription) -> Date {
        let periods = subscription.transactions
        var start = subscription.latest.purchaseDate
        var index = periods.count - 1
        while index > 0 {
            let previous = periods[index - 1]
            // An upgraded period ends early, at the switch.
            let end = previous.isUpgraded ? (previous.cancellationDate ?? previous.expiresDate) : previous.expiresDate
            guard periods[index].purchaseDate.timeIntervalSince(end) < 60 * 86_400 else { break }
            start = previous.purchaseDate
            index -= 1
        }
        return start
    }
}
