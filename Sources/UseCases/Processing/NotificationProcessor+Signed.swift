import AppStore
import AppStoreSignature
import Foundation
import JSON
import Logging
import Settings
import Store
import Subscriptions

extension NotificationProcessor {
    /// The facts of a stored v2 notification, read back without verifying it again: intake
    /// verified it before storing it (``VerifiedNotificationV2/readingStored(_:)`` says why
    /// once is enough). What its type adds is in ``SignedNotificationHandling``.
    func signedFacts(_ notification: ClaimedNotification, app: AppCredentials, logger: Logger) async -> Preparation {
        guard let jws = (try? StrictJSONParser.parse(Array(notification.body.utf8)))?["signedPayload"]?.stringValue else {
            return .dead(reason: "the stored body holds no signedPayload")
        }
        let verified: VerifiedNotificationV2
        do {
            verified = try VerifiedNotificationV2.readingStored(jws)
        } catch {
            return .dead(reason: "the stored signed payload does not decode: \(error.reason)")
        }
        let facts = ReceiptFacts(
            signedTransaction: verified.transaction, renewalInfo: verified.renewalInfo,
            bundleID: notification.bundleID, environment: notification.environment)
        let handling = SignedNotificationHandling.of(verified.payload.notificationType)
        var plan = AttemptPlan()
        if verified.payload.notificationType == .renewalExtension { plan.extensionSummary = verified.payload.summary }
        plan.event = AppleNotificationEvent.of(
            verified.payload.notificationType, subtype: verified.payload.subtypeRaw,
            originalTransactionID: verified.transaction?.originalTransactionID ?? verified.renewalInfo?.originalTransactionID,
            appTransactionID: verified.appTransaction?.appTransactionID)
        guard !facts.transactions.isEmpty || !facts.renewals.isEmpty else {
            plan.note = handling.noteWithoutFacts(verified)
            return .apply(plan)
        }
        plan.batches.append(FactBatch(facts: facts, observedAt: verified.payload.signedDate ?? notification.receivedAt))
        plan.consumption = consumptionRecord(verified, notification, app: app)
        guard handling.reconciles, evidence.canLookUp(bundleID: notification.bundleID), let id = facts.subscriptionIDs.first else {
            return .apply(plan)
        }
        // With an API key, also apply what Apple says about the subscription now (the v2
        // twin of verifying the receipt): a notification that was lost is healed by the next one.
        switch await evidence.lookUp(
            transactionID: id, bundleID: notification.bundleID, environment: notification.environment, withHistory: false, logger: logger)
        {
        case .facts(let batches):
            plan.batches += batches
        case .retry(let reason, _):
            return .retry(reason: reason, limited: false)
        case .refused(let reason, _):
            plan.note = "the notification's own facts applied; reconciling with the App Store Server API failed: \(reason)"
        }
        return .apply(plan)
    }

    /// A CONSUMPTION_REQUEST of an app that answers them, or a refund decision (to join to
    /// the request before it); nil for anything else.
    private func consumptionRecord(
        _ verified: VerifiedNotificationV2, _ notification: ClaimedNotification, app: AppCredentials
    ) -> ConsumptionRecord? {
        guard let transaction = verified.transaction, let transactionID = transaction.transactionID else { return nil }
        let signedAt = verified.payload.signedDate ?? notification.receivedAt
        switch verified.payload.notificationType {
        case .consumptionRequest?:
            guard app.consumptionPolicy != nil, let uuid = verified.payload.notificationUUID else {
                return nil
            }
            return .request(
                NewConsumptionRequest(
                    notificationUUID: uuid, environment: notification.environment, bundleID: notification.bundleID,
                    transactionID: transactionID, originalTransactionID: transaction.originalTransactionID ?? transactionID,
                    productID: transaction.productID, autoRenewable: transaction.expiresDate != nil,
                    reason: verified.payload.data?.consumptionRequestReason, requestedAt: signedAt))
        case let decision? where decision == .refund || decision == .refundDeclined:
            return .outcome(decision.rawValue, environment: notification.environment, transactionID: transactionID, decidedAt: signedAt)
        default:
            return nil
        }
    }

    /// A transaction id queued by `POST /v1/transactions`: looked up with the API, applied,
    /// and the user linked.
    func lookedUp(_ notification: ClaimedNotification, app: AppCredentials, logger: Logger) async -> Preparation {
        guard let id = QueuedPurchases.transactionID(fromStoredBody: notification.body) else {
            return .dead(reason: "the stored body holds no transaction_id")
        }
        switch await evidence.lookUpForLinking(
            transactionID: id, bundleID: notification.bundleID, readingOriginalVersion: app.entitlementPolicy.grandfather != nil,
            logger: logger)
        {
        case .facts(let batches):
            return .apply(AttemptPlan(batches: batches))
        case .retry(let reason, _):
            return .retry(reason: reason, limited: false)
        case .refused(let reason, _):
            return .dead(reason: reason)
        }
    }
}
