import AppStoreServerAPI
import Foundation
import Logging
import Settings
import Store
import Subscriptions

/// Answers CONSUMPTION_REQUESTs (Send Consumption Information) from the requests the worker
/// recorded: for a purchase one of whose users consented, the app's `consumption` answer,
/// retried while Apple cannot take it, until the 12-hour deadline and never after it. The
/// background sender and `subscriptionctl consumption send` both come through here.
public struct ConsumptionAnswers: Sendable {
    /// What one claimed request came to.
    public enum Outcome: String, Sendable, CaseIterable {
        /// Apple accepted the answer.
        case sent
        /// Apple refused it for good (a 4xx other than 429).
        case failed
        /// The deadline passed with no consenting user: nothing was sent.
        case noConsent = "no_consent"
        /// The deadline passed while Apple could not be reached.
        case expired
        /// No consent yet: asked again in a minute.
        case waiting
        /// Apple could not take it now: tried again later.
        case retrying
    }

    /// How often a request without consent looks again.
    public static let consentRecheck: TimeInterval = 60
    /// No attempt starts closer than this to the deadline, so none ends after it.
    public static let deadlineMargin: TimeInterval = 60

    private let store: ConsumptionStore
    private let api: AppStoreAPIDirectory?
    private let apps: AppRegistry

    /// Sends through `api` (each app's client) for `apps`, settling in `store`.
    public init(store: ConsumptionStore, api: AppStoreAPIDirectory?, apps: AppRegistry) {
        self.store = store
        self.api = api
        self.apps = apps
    }

    /// How long a claim keeps other senders away: longer than a batch's sends can take (each
    /// bounded by the API client's timeout and retries), so no request is sent twice at once.
    public static let claimLease: Duration = .seconds(600)

    /// Claims up to `limit` due requests and settles each, judging each deadline at its own
    /// turn; the outcomes, in claim order.
    public func sendDue(limit: Int = 10, logger: Logger) async throws -> [Outcome] {
        var outcomes: [Outcome] = []
        for claimed in try await store.claimDue(limit: limit, lease: Self.claimLease) {
            outcomes.append(try await settle(claimed, now: Date(), logger: logger))
        }
        return outcomes
    }

    /// Settles pending request `id` now, due or not (`subscriptionctl consumption send`); nil
    /// when there is no pending request with that id.
    public func send(id: Int64, logger: Logger) async throws -> Outcome? {
        guard let claimed = try await store.claimDue(limit: 1, lease: Self.claimLease, only: id).first else { return nil }
        return try await settle(claimed, now: Date(), logger: logger)
    }

    private func settle(_ claimed: ClaimedConsumptionRequest, now: Date, logger: Logger) async throws -> Outcome {
        let request = claimed.request
        if request.deadline.timeIntervalSince(now) < Self.deadlineMargin {
            let outcome: Outcome = claimed.consented ? .expired : .noConsent
            let reason =
                claimed.consented
                ? "the 12-hour deadline passed before Apple took the answer"
                : "the 12-hour deadline passed and no user of the purchase consented"
            try await store.markFinal(
                id: request.id, state: claimed.consented ? .expired : .noConsent,
                reason: [request.lastError, reason].compactMap { $0 }.joined(separator: "; "),
                attempted: false)
            return outcome
        }
        guard claimed.consented else {
            try await store.scheduleRetry(
                id: request.id, at: now.addingTimeInterval(Self.consentRecheck), reason: "no user of the purchase has consented yet",
                attempted: false)
            return .waiting
        }
        guard let policy = apps.app(bundleID: request.bundleID)?.consumptionPolicy, let client = api?.client(bundleID: request.bundleID)
        else {
            try await store.markFinal(
                id: request.id, state: .failed,
                reason: "\(request.bundleID) no longer answers consumption requests (consumption or its API key is not configured)",
                attempted: false)
            return .failed
        }
        let body = policy.body(
            autoRenewable: request.autoRenewable, reportedPercentage: claimed.reported?.percentageMilliunits,
            reportedDelivery: claimed.reported?.deliveryStatus.flatMap(ConsumptionPolicy.DeliveryStatus.init(rawValue:)))
        do {
            try await client.sendConsumptionInformation(
                transactionID: request.transactionID, body: Array(body.utf8), environment: request.environment, logger: logger)
            try await store.markSent(id: request.id, body: body)
            return .sent
        } catch let error as AppStoreAPIError where !error.isRetryable {
            try await store.markFinal(id: request.id, state: .failed, reason: "App Store Server API: \(error)", attempted: true)
            return .failed
        } catch {
            let delay = min(30 * pow(2, Double(min(request.attempts, 6))), 1_800)
            try await store.scheduleRetry(
                id: request.id, at: now.addingTimeInterval(delay), reason: "App Store Server API: \(error)", attempted: true)
            return .retrying
        }
    }
}
