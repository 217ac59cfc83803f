import AppStore
import AppStoreSignature
import Foundation
import Logging
import ServiceSupport
import Settings
import Store
import Subscriptions

/// Processes one claimed inbox entry: gathers what Apple says (``AppleEvidence``), applies
/// the facts (``FactApplier``) and records the outcome (processed, retry later, or dead) in
/// the same database transaction.
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

    let database: any FactDatabase
    let inbox: any NotificationOutcomes
    let evidence: AppleEvidence
    let apps: AppRegistry
    let retryPolicy: RetryPolicy
    let receipts: any StoredReceiptSource
    /// The longest an attempt's upstream work may take; shorter than the worker's lease, so an
    /// attempt always records its outcome while its claim is still its own.
    let attemptDeadline: Duration?

    /// How long an attempt's upstream work may run under a worker `lease`: the lease less
    /// 10 s, or three quarters of a short lease, so the outcome is recorded before the lease runs out.
    public static func attemptDeadline(lease: Duration) -> Duration {
        max(lease * 3 / 4, lease - .seconds(10), .milliseconds(1))
    }

    /// Writes the applies of attempts that finish together in one transaction: each saves
    /// its own `BEGIN`, lock statement and `COMMIT` (with its WAL flush).
    let groupCommit: GroupCommit<ApplyJob, Void>

    /// Transactions the group commit runs at once, and applies in each at most. An attempt
    /// waits for one apply at a time, so the worker's concurrency bounds the queue.
    static let applyTransactionsInFlight = 4
    static let appliesPerTransaction = 32

    /// Creates a processor asking Apple through `evidence`, applying through `database` (which
    /// also closes a claim as processed) and recording retries and dead entries in `inbox`;
    /// `receipts` gives a subscription's stored receipt.
    public init(
        database: any FactDatabase, inbox: any NotificationOutcomes, receipts: any StoredReceiptSource, evidence: AppleEvidence,
        apps: AppRegistry,
        retryPolicy: RetryPolicy, attemptDeadline: Duration? = nil
    ) {
        self.database = database
        self.inbox = inbox
        self.evidence = evidence
        self.apps = apps
        self.retryPolicy = retryPolicy
        self.receipts = receipts
        self.attemptDeadline = attemptDeadline
        self.groupCommit = GroupCommit(
            maximumBatchSize: Self.appliesPerTransaction, maximumInFlight: Self.applyTransactionsInFlight, maximumQueued: 65_536
        ) { jobs in
            try await Self.write(jobs, database: database, apps: apps)
        }
    }

    /// Runs one attempt and records its outcome. Database trouble while recording is
    /// thrown: the claim's lease then expires and the entry is tried again.
    @discardableResult
    public func process(_ notification: ClaimedNotification, logger: Logger) async throws -> Outcome {
        var logger = logger
        logger[metadataKey: LogKey.notificationID] = "\(notification.id)"
        logger[metadataKey: LogKey.attempt] = "\(notification.attempt)"
        let plan: AttemptPlan
        let preparation: Preparation
        if let attemptDeadline {
            let attemptLogger = logger
            guard let prepared = await firstResult(within: attemptDeadline, { await prepare(notification, logger: attemptLogger) }) else {
                // Apple was slow or kept answering 429: stopped in time, tried again later.
                let reason = "the attempt ran past its deadline of \(attemptDeadline.components.seconds) s waiting for Apple"
                return try await retry(notification, reason: reason, limited: false, logger: logger)
            }
            preparation = prepared
        } else {
            preparation = await prepare(notification, logger: logger)
        }
        switch preparation {
        case .apply(let prepared):
            plan = prepared
        case .retry(let reason, let limited):
            return try await retry(notification, reason: reason, limited: limited, logger: logger)
        case .dead(let reason):
            return try await dead(notification, reason: reason, logger: logger)
        }
        do {
            do {
                try await apply(plan, of: notification, linking: notification.appUserID)
            } catch let refusal as PurchaseOwnership.Refusal {
                // A queued purchase whose user may not have it (another user's app account
                // token, the refuse policy): Apple's facts are still facts; the link is not made.
                var plan = plan
                plan.note = [plan.note, "not linked to its app user: \(refusal.reason)"].compactMap { $0 }.joined(separator: "; ")
                try await apply(plan, of: notification, linking: nil)
            }
        } catch let error as StaleClaimError {
            logger.info("attempt superseded; its work was rolled back", metadata: [LogKey.error: "\(error)"])
            return .superseded
        } catch let error where StoreFailure(error)?.canHeal == true {
            return try await retry(notification, reason: "database: \(StoreFailure.reason(error))", limited: false, logger: logger)
        } catch let error where StoreFailure(error) != nil {
            // The statement itself was refused (a value out of range, a constraint): the same
            // facts will be refused again, so retrying after every lease would only block the inbox.
            return try await dead(notification, reason: "the database refused its facts: \(error)", logger: logger)
        }
        logger.debug("notification processed")
        return .processed
    }

    /// Applies the plan's facts and marks the notification processed, in one transaction
    /// (shared with other attempts' applies that are ready at the same moment).
    private func apply(_ plan: AttemptPlan, of notification: ClaimedNotification, linking appUserID: String?) async throws {
        try await groupCommit.submit(ApplyJob(plan: plan, notification: notification, appUserID: appUserID))
    }

    /// Writes `jobs` in one transaction: the locks of every subscription they touch first, in
    /// the one global order (so two such transactions cannot deadlock on them), then each
    /// job's facts and what goes with them, then every job's outcome in one statement.
    /// Anything that fails (a claim gone stale, a link the app's policy refuses) rolls all of
    /// them back, and the group commit writes each again alone.
    static func write(_ jobs: [ApplyJob], database: any FactDatabase, apps: AppRegistry) async throws {
        try await database.transaction { transaction in
            try transaction.lockPurchases(of: jobs.flatMap { $0.plan.batches.map(\.facts) })
            for job in jobs {
                let (plan, notification) = (job.plan, job.notification)
                try FactApplier.applyLocked(
                    plan.batches, notificationID: notification.id, appUserID: job.appUserID, app: plan.app, apps: apps, in: transaction)
                try plan.consumption?.record(in: transaction)
                if let event = plan.event {
                    try transaction.recordNotificationEvent(
                        event, bundleID: notification.bundleID, environment: notification.environment, webhookEvents: apps.webhookEvents,
                        now: Date())
                }
                if let summary = plan.extensionSummary, let identifier = summary.requestIdentifier {
                    try transaction.recordExtensionSummary(
                        requestIdentifier: identifier, bundleID: notification.bundleID, succeededCount: summary.succeededCount,
                        failedCount: summary.failedCount)
                }
            }
            try transaction.markProcessed(jobs.map { ProcessedAttempt($0.notification, note: $0.plan.note) })
        }
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

/// One attempt's apply: the facts and what goes with them, and the claim they close.
struct ApplyJob: Sendable {
    let plan: AttemptPlan
    let notification: ClaimedNotification
    let appUserID: String?
}
