import AppStore
import AppStoreSignature
import Foundation
import Logging
import Postgres
import Store
import Subscriptions

/// The facts one attempt will apply, each batch with the time its information is from.
struct ApplyPlan {
    struct Batch {
        let facts: ReceiptFacts
        let observedAt: Date
    }

    var batches: [Batch] = []
    /// Kept with the attempt when nothing could be verified (so nothing was applied).
    var note: String?
}

/// The result of everything an attempt does before touching the database.
enum Preparation {
    case apply(ApplyPlan)
    case retry(reason: String, limited: Bool)
    case dead(reason: String)
}

extension NotificationProcessor {
    /// Decodes the stored body, verifies its receipt upstream and gathers the facts.
    func prepare(_ notification: ClaimedNotification, logger: Logger) async -> Preparation {
        guard let app = apps.app(bundleID: notification.bundleID) else {
            return .dead(reason: "bundle id \(notification.bundleID) is not a configured app")
        }
        switch notification.source {
        case .v1:
            let body: NotificationV1
            do {
                body = try NotificationV1.decode(from: Array(notification.body.utf8))
            } catch let error as AppleValueError {
                // Stored by a version that did not check dates (or by hand): refuse it now.
                return .dead(reason: "the stored body is malformed: \(error)")
            } catch {
                return .dead(reason: "the stored body is not a version 1 notification")
            }
            // Only Apple's answer is applied: the body's own claims are authenticated by a
            // shared secret alone (one that has shipped inside apps), so they never grant,
            // extend or revoke anything. Its receipt, or else the subscription's stored one,
            // is verified instead.
            if let receipt = body.receiptData {
                return await verified(receipt: receipt, app: app, plan: ApplyPlan(), logger: logger)
            }
            let stored: String?
            do {
                stored = try await receipts.latestReceipt(
                    bundleID: notification.bundleID, environment: notification.environment,
                    originalTransactionIDs: body.originalTransactionIDs)
            } catch let error as PostgresError where error.isTransient {
                return .retry(reason: "database: \(error.message)", limited: false)
            } catch {
                return .dead(reason: "cannot look up the subscription's stored receipt: \(error)")
            }
            let removed = notification.receiptRemovedAt.map { "its receipt was removed by retention on \(RetentionText.day($0)); " }
            guard let stored else {
                var plan = ApplyPlan()
                plan.note = (removed ?? "no receipt in the body and ")
                    + "none is stored for its subscription: recorded without applying its claims"
                return .apply(plan)
            }
            var plan = ApplyPlan()
            plan.note = removed.map { $0 + "verified the subscription's latest stored receipt instead" }
            return await verified(receipt: stored, app: app, plan: plan, logger: logger)
        case .receipt:
            guard let receipt = QueuedReceipt.receiptData(fromStoredBody: notification.body) else {
                if let removed = notification.receiptRemovedAt {
                    return .dead(reason: "its receipt_data was removed by retention on \(RetentionText.day(removed)): nothing to verify")
                }
                return .dead(reason: "the stored body holds no receipt_data")
            }
            return await verified(receipt: receipt, app: app, plan: ApplyPlan(), logger: logger)
        case .v2:
            return await signedFacts(notification, logger: logger)
        case .transaction:
            return await lookedUp(notification, logger: logger)
        }
    }

    private func verified(receipt: String, app: AppCredentials, plan: ApplyPlan, logger: Logger) async -> Preparation {
        switch await verifier.verify(receiptData: receipt, app: app, logger: logger) {
        case .verified(let response, let observedAt, let endpoint):
            var plan = plan
            var facts = ReceiptFacts(verifyResponse: response, bundleID: app.bundleID, observedAt: observedAt, environmentFallback: endpoint)
            // Keep a receipt to re-verify later even when the answer carries no newer one.
            facts.latestReceipt = facts.latestReceipt ?? receipt
            plan.batches.append(.init(facts: facts, observedAt: observedAt))
            return .apply(plan)
        case .retry(let reason, let limited):
            return .retry(reason: reason, limited: limited)
        case .permanent(let reason):
            return .dead(reason: reason)
        }
    }
}

/// The stored body of a receipt queued by `POST /v1/receipts`.
enum QueuedReceipt {
    static func receiptData(fromStoredBody body: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else { return nil }
        return object["receipt_data"] as? String
    }
}

/// How notes name the day retention removed a receipt.
enum RetentionText {
    /// `2026-11-22` (UTC).
    static func day(_ date: Date) -> String {
        String(ISO8601DateFormatter().string(from: date).prefix(10))
    }
}
