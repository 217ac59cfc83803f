import Foundation
import Logging
import ServiceSupport
import Settings
import Store
import Webhooks

/// One delivery attempt of a claimed outbox event to its app's backend, and what it leaves
/// behind: delivered, tried again later by the retry policy, or `dead` once the policy gives
/// up. Every outcome write is fenced by the claim (a superseded attempt writes nothing).
public struct WebhookAttempt: Sendable {
    /// What the attempt came to.
    public enum Outcome: Sendable, Equatable {
        /// The backend answered 2xx.
        case delivered
        /// It failed; tried again at `next`.
        case retrying(next: Date)
        /// It failed for the last time the policy allows.
        case dead(reason: String)
        /// The claim was no longer this attempt's (its lease ran out): nothing recorded.
        case superseded
        /// The app has no webhook URL any more: left for housekeeping to bury.
        case notConfigured
    }

    private let outbox: WebhookOutbox
    private let sender: WebhookSender
    private let apps: AppRegistry
    private let retry: WebhookRetryPolicy

    /// Attempts through `sender` for the configured `apps`, closing claims of `outbox` under `retry`.
    public init(outbox: WebhookOutbox, sender: WebhookSender, apps: AppRegistry, retry: WebhookRetryPolicy) {
        self.outbox = outbox
        self.sender = sender
        self.apps = apps
        self.retry = retry
    }

    /// Sends `claim` and records its outcome. Throws when recording failed (database
    /// trouble): the claim's lease then brings the event back.
    public func deliver(_ claim: ClaimedWebhookEvent, logger: Logger, now: @Sendable () -> Date = Date.init) async throws -> Outcome {
        guard let target = apps.app(bundleID: claim.event.bundleID)?.webhook else { return .notConfigured }
        switch await sender.send(claim.event, to: target, logger: logger) {
        case .acknowledged(let status):
            return try await outbox.markDelivered(claim, status: status) ? .delivered : .superseded
        case .failed(let status, let reason):
            if let next = retry.nextAttempt(after: claim.attempt, windowStart: claim.event.retryWindowStart, now: now()) {
                logger.info("webhook delivery failed; will retry", metadata: [LogKey.error: "\(reason)", "next_attempt_at": "\(next)"])
                return try await outbox.scheduleRetry(claim, at: next, status: status, reason: reason) ? .retrying(next: next) : .superseded
            }
            let final = "gave up after \(claim.attempt) attempts: \(reason)"
            logger.warning("webhook event is dead", metadata: [LogKey.error: "\(final)"])
            return try await outbox.markDead(claim, status: status, reason: final) ? .dead(reason: final) : .superseded
        }
    }
}
