import AppStore
import Foundation
import Store
import Subscriptions

/// Why a subscription has its status, in one sentence for support staff, derived from the
/// snapshot, the renewal info and the transactions (never stored: it follows the facts).
enum StatusExplanation {
    static func sentence(_ story: SubscriptionStory, now: Date = Date()) -> String {
        let snapshot = story.view.snapshot
        switch snapshot.status {
        case .active:
            let kind = snapshot.inTrial ? "free trial" : snapshot.inIntroOffer ? "introductory offer" : "paid"
            let ends = snapshot.expiresAt.map { TimeText.withAge($0, now: now) } ?? "at an unknown time"
            if snapshot.autoRenew == false {
                return "active (\(kind)) until \(ends); will not renew: \(autoRenewOff(story, now: now))"
            }
            let next = snapshot.autoRenewProductID ?? snapshot.productID
            return "active (\(kind)): renews \(ends)" + (next == snapshot.productID ? "" : " to \(next)") + upgrade(story, now: now)
        case .gracePeriod:
            return "grace period: the renewal charge failed; Apple is retrying and access continues until "
                + TimeText.withAge(snapshot.gracePeriodExpiresAt, now: now)
        case .billingRetry:
            return "billing retry: the renewal charge failed when the period ended "
                + TimeText.withAge(snapshot.expiresAt, now: now) + "; Apple is still retrying, no access meanwhile"
        case .revoked:
            let reason =
                snapshot.revocationReason == "1"
                ? "the customer reported a problem with the app"
                : snapshot.revocationReason == "0" ? "other reason" : "no reason given"
            return "revoked: refunded \(TimeText.withAge(snapshot.revokedAt, now: now)) (\(reason))"
        case .expired:
            switch snapshot.expirationIntent {
            case .customerCancelled?: return "expired: customer cancelled, \(autoRenewOff(story, now: now))"
            case .billingError?: return "expired: billing error, Apple stopped retrying the renewal charge"
            case .priceIncreaseDeclined?: return "expired: the customer did not accept a price increase"
            case .productUnavailable?: return "expired: the product was not available for renewal"
            case .unknown?: return "expired: Apple gave no reason"
            case nil:
                if snapshot.autoRenew == false { return "expired: \(autoRenewOff(story, now: now))" }
                return "expired: the period ended and no renewal has arrived"
            }
        }
    }

    /// `; upgraded from com.example.pro.monthly 2026-11-01 14:55Z (20 days ago)` when the
    /// current period replaced one ended early by an upgrade.
    private static func upgrade(_ story: SubscriptionStory, now: Date) -> String {
        let transactions = story.view.transactions
        guard let upgraded = transactions.last(where: \.isUpgraded),
            let successor = transactions.first(where: {
                !$0.isUpgraded && $0.purchaseDate >= upgraded.purchaseDate && $0.transactionID != upgraded.transactionID
            })
        else { return "" }
        return "; upgraded from \(upgraded.productID) \(TimeText.withAge(successor.purchaseDate, now: now))"
    }

    /// `auto-renew was turned off 2026-10-03 10:00Z (30 days ago)`, as precisely as known.
    private static func autoRenewOff(_ story: SubscriptionStory, now: Date) -> String {
        if let date = story.autoRenewTurnedOffAt { return "auto-renew was turned off \(TimeText.withAge(date, now: now))" }
        return "auto-renew is off"
    }

    /// `trial`, `intro` or `paid`.
    static func kind(_ transaction: TransactionFact) -> String {
        transaction.isTrialPeriod ? "trial" : transaction.isInIntroOfferPeriod ? "intro" : "paid"
    }

    /// What else happened to a transaction: refunded, upgraded, offers, family sharing.
    static func note(_ transaction: TransactionFact, now: Date) -> String {
        var notes: [String] = []
        if transaction.isUpgraded { notes.append("upgraded (period ended early)") }
        if transaction.isRevoked, let date = transaction.cancellationDate {
            notes.append("refunded \(TimeText.withAge(date, now: now))")
        }
        if let code = transaction.offerCodeRefName { notes.append("offer code \(code)") }
        if let offer = transaction.promotionalOfferID { notes.append("promotional offer \(offer)") }
        if transaction.ownershipType == "FAMILY_SHARED" { notes.append("family shared") }
        return notes.isEmpty ? "-" : notes.joined(separator: "; ")
    }
}
