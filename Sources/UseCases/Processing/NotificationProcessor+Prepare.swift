import AppStore
import AppStoreSignature
import Foundation
import JSON
import Logging
import Settings
import Store
import Subscriptions

/// The facts one attempt will apply, each batch with the time its information is from.
struct AttemptPlan {
    var batches: [FactBatch] = []
    /// Kept with the attempt when nothing could be verified (so nothing was applied).
    var note: String?
    /// The notification's app, resolved once per claim and passed down to the apply.
    var app: AppCredentials?
    /// A CONSUMPTION_REQUEST to answer, or the refund decision that follows one.
    var consumption: ConsumptionRecord?
    /// A RENEWAL_EXTENSION summary: Apple finished a mass extension this service may have asked for.
    var extensionSummary: NotificationV2Summary?
    /// The event the notification's type brings of its own (RESCIND_CONSENT, Advanced Commerce), written after its facts.
    var event: AppleNotificationEvent?
}

/// What a v2 notification adds to the consumption requests, written with its facts.
enum ConsumptionRecord {
    case request(NewConsumptionRequest)
    case outcome(String, environment: AppStoreEnvironment, transactionID: String, decidedAt: Date)

    func record(in transaction: any FactTransaction) throws {
        switch self {
        case .request(let request):
            try transaction.recordConsumptionRequest(request)
        case .outcome(let outcome, let environment, let transactionID, let decidedAt):
            try transaction.recordConsumptionOutcome(outcome, environment: environment, transactionID: transactionID, decidedAt: decidedAt)
        }
    }
}

/// The result of everything an attempt does before touching the database.
enum Preparation {
    case apply(AttemptPlan)
    case retry(reason: String, limited: Bool)
    case dead(reason: String)
}

extension NotificationProcessor {
    /// Decodes the stored body, verifies its receipt upstream and gathers the facts. The
    /// app is looked up here, once per claim, and goes down with the plan.
    func prepare(_ notification: ClaimedNotification, logger: Logger) async -> Preparation {
        guard let app = apps.app(bundleID: notification.bundleID) else {
            return .dead(reason: "bundle id \(notification.bundleID) is not a configured app")
        }
        switch await prepare(notification, app: app, logger: logger) {
        case .apply(var plan):
            plan.app = app
            return .apply(plan)
        case let other:
            return other
        }
    }

    private func prepare(_ notification: ClaimedNotification, app: AppCredentials, logger: Logger) async -> Preparation {
        switch notification.source {
        case .v1:
            let body: NotificationV1
            do {
                // The same parser and decoder as intake: one set of rules for the body on both hops.
                body = try NotificationV1.decode(from: try StrictJSONParser.parse(Array(notification.body.utf8)))
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
                return await verified(receipt: receipt, app: app, plan: AttemptPlan(), logger: logger)
            }
            let stored: String?
            do {
                stored = try await receipts.latestReceipt(
                    bundleID: notification.bundleID, environment: notification.environment,
                    originalTransactionIDs: body.originalTransactionIDs)
            } catch let error where StoreFailure(error)?.canHeal == true {
                return .retry(reason: "database: \(StoreFailure.reason(error))", limited: false)
            } catch {
                return .dead(reason: "cannot look up the subscription's stored receipt: \(error)")
            }
            let removed = notification.receiptRemovedAt.map { "its receipt was removed by retention on \(RetentionText.day($0)); " }
            guard let stored else {
                var plan = AttemptPlan()
                plan.note =
                    (removed ?? "no receipt in the body and ")
                    + "none is stored for its subscription: recorded without applying its claims"
                return .apply(plan)
            }
            var plan = AttemptPlan()
            plan.note = removed.map { $0 + "verified the subscription's latest stored receipt instead" }
            return await verified(receipt: stored, app: app, plan: plan, logger: logger)
        case .receipt:
            guard let receipt = QueuedPurchases.receiptData(fromStoredBody: notification.body) else {
                if let removed = notification.receiptRemovedAt {
                    return .dead(reason: "its receipt_data was removed by retention on \(RetentionText.day(removed)): nothing to verify")
                }
                return .dead(reason: "the stored body holds no receipt_data")
            }
            return await verified(receipt: receipt, app: app, plan: AttemptPlan(), logger: logger)
        case .v2:
            return await signedFacts(notification, app: app, logger: logger)
        case .transaction:
            return await lookedUp(notification, app: app, logger: logger)
        }
    }

    private func verified(receipt: String, app: AppCredentials, plan: AttemptPlan, logger: Logger) async -> Preparation {
        switch await evidence.verify(receipt: receipt, app: app, keepingReceipt: true, logger: logger) {
        case .facts(let batches):
            var plan = plan
            plan.batches += batches
            return .apply(plan)
        case .retry(let reason, let limited):
            return .retry(reason: reason, limited: limited)
        case .refused(let reason, _):
            return .dead(reason: reason)
        }
    }
}

/// How notes name the day retention removed a receipt.
enum RetentionText {
    /// `2026-11-22` (UTC).
    static func day(_ date: Date) -> String {
        String(ISO8601DateFormatter().string(from: date).prefix(10))
    }
}
