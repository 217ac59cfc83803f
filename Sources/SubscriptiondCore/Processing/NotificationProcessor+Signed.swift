import AppStore
import AppStoreSignature
import Foundation
import Logging
import Postgres
import Store
import Subscriptions

extension NotificationProcessor {
    /// The facts of a stored v2 notification. Its signatures are checked again (cheap with
    /// the chain cache): the stored payload is evidence, and only verified data is applied.
    func signedFacts(_ notification: ClaimedNotification, logger: Logger) async -> Preparation {
        guard let jws = (try? StrictJSONParser.parse(Array(notification.body.utf8)))?["signedPayload"]?.stringValue else {
            return .dead(reason: "the stored body holds no signedPayload")
        }
        let verified: VerifiedNotificationV2
        do {
            verified = try await signatures.verifyNotification(jws)
        } catch where error.kind == .unavailable {
            return .retry(reason: "the stored signed payload cannot be checked now: \(error.reason)", limited: false)
        } catch {
            return .dead(reason: "the stored signed payload does not verify against the configured roots: \(error.reason)")
        }
        let facts = ReceiptFacts(
            signedTransaction: verified.transaction, renewalInfo: verified.renewalInfo,
            bundleID: notification.bundleID, environment: notification.environment)
        var plan = ApplyPlan()
        guard !facts.transactions.isEmpty || !facts.renewals.isEmpty else {
            plan.note = "\(verified.payload.notificationTypeRaw ?? "notification") carries no transaction: recorded"
            return .apply(plan)
        }
        plan.batches.append(.init(facts: facts, observedAt: verified.payload.signedDate ?? notification.receivedAt))
        guard let client = api?.client(bundleID: notification.bundleID), let id = facts.subscriptionIDs.first else { return .apply(plan) }
        // With an API key, also apply what Apple says about the subscription now (the v2
        // twin of verifying the receipt): a notification that was lost is healed by the next one.
        do {
            for batch in try await AppleSubscriptionState.facts(
                transactionID: id, environment: notification.environment, withHistory: false, client: client, logger: logger) {
                plan.batches.append(.init(facts: batch, observedAt: Date()))
            }
        } catch let error as AppStoreAPIError where error.isRetryable {
            return .retry(reason: "App Store Server API: \(error)", limited: false)
        } catch {
            plan.note = "the notification's own facts applied; reconciling with the App Store Server API failed: \(error)"
        }
        return .apply(plan)
    }

    /// A transaction id queued by `POST /v1/transactions`: looked up with the API, applied,
    /// and the user linked.
    func lookedUp(_ notification: ClaimedNotification, logger: Logger) async -> Preparation {
        guard let id = (try? StrictJSONParser.parse(Array(notification.body.utf8)))?["transaction_id"]?.stringValue else {
            return .dead(reason: "the stored body holds no transaction_id")
        }
        guard let client = api?.client(bundleID: notification.bundleID) else {
            return .dead(reason: "\(notification.bundleID) has no App Store Server API key to look transaction \(id) up with")
        }
        do {
            var plan = ApplyPlan()
            for batch in try await AppleSubscriptionState.facts(transactionID: id, environment: nil, withHistory: false, client: client, logger: logger) {
                plan.batches.append(.init(facts: batch, observedAt: Date()))
            }
            return .apply(plan)
        } catch let error as AppStoreAPIError where error.isRetryable {
            return .retry(reason: "App Store Server API: \(error)", limited: false)
        } catch {
            return .dead(reason: "App Store Server API: \(error)")
        }
    }
}
