import AppStore
import AppStoreSignature
import Foundation
import Logging
import Postgres
import Store
import Subscriptions

/// Processes one claimed inbox entry: verifies its receipt upstream, applies the facts in
/// one database transaction, and records the outcome (processed, retry later, or dead).
public struct NotificationProcessor: Sendable {
    /// What one attempt came to.
    public enum Outcome: Sendable, Equatable {
        /// Facts applied; the entry is `processed`.
        case processed
        /// Scheduled for another attempt.
        case retrying(reason: String)
        /// Given up for good.
        case dead(reason: String)
        /// The claim ran out and a newer one (or an operator) took the entry over: nothing written.
        case superseded
    }

    private let database: PostgresClient
    private let inbox: NotificationInbox
    private let verifier: ReceiptVerifier
    private let apps: AppRegistry
    private let retryPolicy: RetryPolicy
    private let receipts: StoredReceipts
    private let signatures: SignedPayloadVerifier
    private let api: AppStoreAPIDirectory?

    /// Creates a processor.
    public init(
        database: PostgresClient, verifier: ReceiptVerifier, signatures: SignedPayloadVerifier, apps: AppRegistry, retryPolicy: RetryPolicy,
        api: AppStoreAPIDirectory? = nil
    ) {
        self.database = database
        self.inbox = NotificationInbox(client: database)
        self.verifier = verifier
        self.apps = apps
        self.retryPolicy = retryPolicy
        self.receipts = StoredReceipts(client: database)
        self.signatures = signatures
        self.api = api
    }

    /// Runs one attempt and records its outcome. Database trouble while recording is
    /// thrown: the claim's lease then expires and the entry is tried again.
    @discardableResult
    public func process(_ notification: ClaimedNotification, logger: Logger) async throws -> Outcome {
        var logger = logger
        logger[metadataKey: LogKey.notificationID] = "\(notification.id)"
        logger[metadataKey: LogKey.attempt] = "\(notification.attempt)"
        let plan: ApplyPlan
        switch await prepare(notification, logger: logger) {
        case .apply(let prepared):
            plan = prepared
        case .retry(let reason, let limited):
            return try await retry(notification, reason: reason, limited: limited, logger: logger)
        case .dead(let reason):
            return try await dead(notification, reason: reason, logger: logger)
        }
        do {
            try await database.withTransaction { session in
                for batch in plan.batches {
                    try FactStore.apply(batch.facts, receiptObservedAt: batch.observedAt, notificationID: notification.id,
                                        appUserID: notification.appUserID, in: session)
                }
                try NotificationInbox.markProcessed(notification, note: plan.note, in: session)
            }
        } catch let error as StaleClaimError {
            logger.info("attempt superseded; its work was rolled back", metadata: [LogKey.error: "\(error)"])
            return .superseded
        } catch let error as PostgresError where error.isTransient {
            return try await retry(notification, reason: "database: \(error.message)", limited: false, logger: logger)
        } catch let error as PostgresError {
            // The statement itself was refused (a value out of range, a constraint): the same
            // facts will be refused again, so retrying after every lease would only block the inbox.
            return try await dead(notification, reason: "the database refused its facts: \(error.description)", logger: logger)
        }
        logger.debug("notification processed")
        return .processed
    }

    private func dead(_ notification: ClaimedNotification, reason: String, logger: Logger) async throws -> Outcome {
        logger.warning("notification is dead", metadata: [LogKey.error: "\(reason)"])
        return try await inbox.markDead(notification, reason: reason) ? .dead(reason: reason) : .superseded
    }

    private func retry(_ notification: ClaimedNotification, reason: String, limited: Bool, logger: Logger) async throws -> Outcome {
        guard let next = retryPolicy.nextAttempt(after: notification.attempt, limited: limited, now: Date()) else {
            return try await dead(notification, reason: "gave up after \(notification.attempt) attempts: \(reason)", logger: logger)
        }
        logger.info("notification will be retried", metadata: [LogKey.error: "\(reason)", "next_attempt_at": "\(next)"])
        return try await inbox.scheduleRetry(notification, at: next, reason: reason) ? .retrying(reason: reason) : .superseded
    }
}

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
