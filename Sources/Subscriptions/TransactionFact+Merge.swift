import AppStore
import Foundation

extension TransactionFact {
    /// Combines two observations of the same transaction so that nothing learnt is lost.
    ///
    /// Present values win over absent ones and flags are OR-ed. Two present values should
    /// agree; when they do not, the pick is deterministic (the later `expiresDate`, since
    /// Apple only ever extends a period; the earlier date or the smaller string otherwise) so
    /// that `a.merged(with: b) == b.merged(with: a)` and any arrival order ends in the same
    /// stored row.
    ///
    /// A refund is the exception, because Apple can reverse one: the observation Apple stated
    /// last decides the cancellation (so a reversed refund un-revokes), an observation with no
    /// statement time (a row stored before times were kept, a receipt's `in_app` snapshot)
    /// counting as older than any stated one; between observations stated at the same time
    /// (or both unstated) a cancellation is only ever added, never cleared. That is a choice
    /// of the greatest under one total order, so the merge stays associative and commutative.
    ///
    /// Facts of another transaction id or environment are not the same transaction: `self`
    /// comes back unchanged.
    public func merged(with other: TransactionFact) -> TransactionFact {
        guard transactionID == other.transactionID, environment == other.environment else { return self }
        var result = self
        result.originalTransactionID = Self.pick(originalTransactionID, other.originalTransactionID)
        result.productID = Self.pick(productID, other.productID)
        result.bundleID = Self.pick(bundleID, other.bundleID)
        result.subscriptionGroupID = Self.pick(subscriptionGroupID, other.subscriptionGroupID)
        result.purchaseDate = min(purchaseDate, other.purchaseDate)
        result.originalPurchaseDate = Self.pick(originalPurchaseDate, other.originalPurchaseDate, by: min)
        result.expiresDate = Self.pick(expiresDate, other.expiresDate, by: max)
        result.webOrderLineItemID = Self.pick(webOrderLineItemID, other.webOrderLineItemID)
        result.isTrialPeriod = isTrialPeriod || other.isTrialPeriod
        result.isInIntroOfferPeriod = isInIntroOfferPeriod || other.isInIntroOfferPeriod
        result.isUpgraded = isUpgraded || other.isUpgraded
        result.ownershipType = Self.pick(ownershipType, other.ownershipType)
        result.offerCodeRefName = Self.pick(offerCodeRefName, other.offerCodeRefName)
        result.promotionalOfferID = Self.pick(promotionalOfferID, other.promotionalOfferID)
        // A transaction seen both ways (an app moving to v2) counts as signed.
        result.source = max(source, other.source)
        result.offerType = Self.pick(offerType, other.offerType)
        result.appAccountToken = Self.pick(appAccountToken, other.appAccountToken)
        result.productType = Self.pick(productType?.rawValue, other.productType?.rawValue).flatMap(ProductType.init(rawValue:))
        result.quantity = Self.pick(quantity, other.quantity, by: max)
        result.priceMilliunits = Self.pick(priceMilliunits, other.priceMilliunits)
        result.currency = Self.pick(currency, other.currency)
        result.storefront = Self.pick(storefront, other.storefront)
        result.appTransactionID = Self.pick(appTransactionID, other.appTransactionID)
        result.offerDiscountType = Self.pick(offerDiscountType, other.offerDiscountType)
        result.offerPeriod = Self.pick(offerPeriod, other.offerPeriod)
        result.billingPlanType = Self.pick(billingPlanType, other.billingPlanType)
        result.commitmentExpiresAt = Self.pick(commitmentExpiresAt, other.commitmentExpiresAt)
        // The reason and the revocation type travel with the date they explain.
        var cancellation: Cancellation
        if statedAt != other.statedAt {
            let mineIsNewer = (statedAt ?? .distantPast) > (other.statedAt ?? .distantPast)
            cancellation = mineIsNewer ? self.cancellation : other.cancellation
        } else {
            cancellation = Self.pickCancellation(self.cancellation, other.cancellation)
        }
        // Observations of the same cancellation add to each other: a receipt verified later
        // states the date but never the refund's type or share, which a signed notification did.
        if let date = cancellation.date {
            for known in [self.cancellation, other.cancellation] where known.date == date {
                cancellation.reason = cancellation.reason ?? known.reason
                cancellation.type = cancellation.type ?? known.type
                cancellation.percentage = cancellation.percentage ?? known.percentage
            }
        }
        result.statedAt = Self.pick(statedAt, other.statedAt, by: max)
        result.cancellationDate = cancellation.date
        result.cancellationReason = cancellation.reason
        result.revocationType = cancellation.type
        result.revocationPercentage = cancellation.percentage
        return result
    }

    /// Whether this is `earlier` stated again, later: equal in everything but `statedAt`,
    /// which is newer. A store can then move the statement time alone.
    public func isRestatement(of earlier: TransactionFact) -> Bool {
        guard let statedAt, statedAt > (earlier.statedAt ?? .distantPast) else { return false }
        var restated = self
        restated.statedAt = earlier.statedAt
        return restated == earlier
    }

    private static func pick(_ a: String, _ b: String) -> String {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        return min(a, b)
    }

    private static func pick<T: Comparable>(_ a: T?, _ b: T?, by choose: (T, T) -> T = min) -> T? {
        switch (a, b) {
        case (let a?, let b?): choose(a, b)
        case (let a?, nil): a
        case (nil, let b): b
        }
    }

    /// A cancellation as one value: the date, Apple's reason code, revocation type and percentage.
    private typealias Cancellation = (date: Date?, reason: String?, type: String?, percentage: Int?)

    private var cancellation: Cancellation { (cancellationDate, cancellationReason, revocationType, revocationPercentage) }

    /// The smaller of two cancellations: a date beats none, the earlier date wins, then a
    /// reason beats none, then a type beats none, then a percentage beats none. Taking a minimum keeps the merge associative
    /// and commutative.
    private static func pickCancellation(_ a: Cancellation, _ b: Cancellation) -> Cancellation {
        func key(_ c: Cancellation) -> (Date, Int, String, Int, String, Int) {
            (c.date ?? .distantFuture, c.reason == nil ? 1 : 0, c.reason ?? "", c.type == nil ? 1 : 0, c.type ?? "", c.percentage ?? .max)
        }
        return key(b) < key(a) ? b : a
    }
}
