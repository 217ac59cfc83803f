import AppStore
import Foundation
import Subscriptions

/// Why a subscription has its status, in one sentence for support staff, derived from the
/// snapshot, the renewal info and the transactions (never stored: it follows the facts); for
/// `subscriptionctl subscription show` and the console. Each edge says how it writes a time
/// (`time`: nil is an unknown time).
public enum StatusExplanation {
    public static func sentence(_ story: SubscriptionStory, time: (Date?) -> String) -> String {
        let snapshot = story.view.snapshot
        switch snapshot.status {
        case .active:
            let kind = snapshot.inTrial ? "free trial" : snapshot.inIntroOffer ? "introductory offer" : "paid"
            let ends = snapshot.expiresAt.map { time($0) } ?? "at an unknown time"
            if snapshot.autoRenew == false {
                return "active (\(kind)) until \(ends); will not renew: \(autoRenewOff(story, time: time))"
            }
            let next = snapshot.autoRenewProductID ?? snapshot.productID
            return "active (\(kind)): renews \(ends)" + (next == snapshot.productID ? "" : " to \(next)") + upgrade(story, time: time)
        case .gracePeriod:
            return "grace period: the renewal charge failed; Apple is retrying and access continues until "
                + time(snapshot.gracePeriodExpiresAt)
        case .billingRetry:
            return "billing retry: the renewal charge failed when the period ended "
                + time(snapshot.expiresAt) + "; Apple is still retrying, no access meanwhile"
        case .revoked:
            let reason =
                snapshot.revocationReason == "1"
                ? "the customer reported a problem with the app"
                : snapshot.revocationReason == "0" ? "other reason" : "no reason given"
            return "revoked: refunded \(time(snapshot.revokedAt)) (\(reason))"
        case .expired:
            switch snapshot.expirationIntent {
            case .customerCancelled?: return "expired: customer cancelled, \(autoRenewOff(story, time: time))"
            case .billingError?: return "expired: billing error, Apple stopped retrying the renewal charge"
            case .priceIncreaseDeclined?: return "expired: the customer did not accept a price increase"
            case .productUnavailable?: return "expired: the product was not available for renewal"
            case .unknown?: return "expired: Apple gave no reason"
            case nil:
                if snapshot.autoRenew == false { return "expired: \(autoRenewOff(story, time: time))" }
                return "expired: the period ended and no renewal has arrived"
            }
        }
    }

    /// `; upgraded from com.example.pro.monthly 2026-11-01 14:55Z (20 days ago)` when the
    /// current period replaced one ended early by an upgrade.
    private static func upgrade(_ story: SubscriptionStory, time: (Date?) -> String) -> String {
        let transactions = story.view.transactions
        guard let upgraded = transactions.last(where: \.isUpgraded),
            let successor = transactions.first(where: {
                !$0.isUpgraded && $0.purchaseDate >= upgraded.purchaseDate && $0.transactionID != upgraded.transactionID
            })
        else { return "" }
        return "; upgraded from \(upgraded.productID) \(time(successor.purchaseDate))"
    }

    /// `auto-renew was turned off 2026-10-03 10:00Z (30 days ago)`, as precisely as known.
    private static func autoRenewOff(_ story: SubscriptionStory, time: (Date?) -> String) -> String {
        if let date = story.autoRenewTurnedOffAt { return "auto-renew was turned off \(time(date))" }
        return "auto-renew is off"
    }

    /// `trial`, `intro` or `paid`.
    public static func kind(_ transaction: TransactionFact) -> String {
        transaction.isTrialPeriod ? "trial" : transaction.isInIntroOfferPeriod ? "intro" : "paid"
    }

    /// What else happened to a transaction: refunded, upgraded, offers, family sharing.
    public static func note(_ transaction: TransactionFact, time: (Date?) -> String) -> String {
        var notes: [String] = []
        if transaction.isUpgraded { notes.append("upgraded (period ended early)") }
        if transaction.isRevoked, let date = transaction.cancellationDate {
            notes.append("refunded \(time(date))")
        }
        if let code = transaction.offerCodeRefName { notes.append("offer code \(code)") }
        if let offer = transaction.promotionalOfferID { notes.append("promotional offer \(offer)") }
        if transaction.ownershipType == "FAMILY_SHARED" { notes.append("family shared") }
        return notes.isEmpty ? "-" : notes.joined(separator: "; ")
    }
}
