import Access
import AppStoreServerAPI
import Foundation
import Logging
import Settings
import Store

/// Finish Transaction (App Store Server API 1.20) for apps with `finish_transactions`: each
/// one-time purchase is queued when it is applied (a consumable once the app's backend
/// confirms delivery, `POST /v1/purchases/{transaction_id}/delivered`), and the finish sender
/// tells Apple, retrying what Apple did not take with backoff, recording every outcome.
public struct TransactionFinishing: Sendable {
    /// What became of one claimed finish.
    public enum Outcome: String, Sendable, CaseIterable {
        case finished, retrying, failed
    }

    /// How long a claimed finish is kept from other senders: far longer than one API call.
    public static let claimLease: Duration = .seconds(300)

    private let queue: any TransactionFinishQueue
    private let api: AppStoreAPIDirectory?
    private let apps: AppRegistry

    public init(queue: any TransactionFinishQueue, api: AppStoreAPIDirectory?, apps: AppRegistry) {
        self.queue = queue
        self.api = api
        self.apps = apps
    }

    /// The app's backend delivered the consumable `transactionID`: its finish is sent now.
    /// A purchase already confirmed, or not a consumable, answers as it stands; one of an app
    /// that does not finish transactions is `notConfigured`; one `principal` cannot see, or
    /// none, `notFound`.
    public func delivered(transactionID: String, by principal: Principal) async throws -> TransactionFinish {
        guard principal.may(.write) else { throw UseCaseError.forbidden("confirming a delivery needs the write scope") }
        let missing = UseCaseError.notFound("no stored purchase has transaction_id \(transactionID)")
        // A key limited to other apps confirms nothing: the purchase is as unknown to it as none.
        guard let owner = try await queue.bundleID(ofTransaction: transactionID), principal.sees(owner) else { throw missing }
        switch try await queue.confirmDelivery(transactionID: transactionID, by: principal.actor) {
        case .queued(let finish):
            return finish
        case .notQueued(let bundleID):
            throw UseCaseError.notConfigured(
                apps.app(bundleID: bundleID)?.finishesTransactions == true
                    ? "transaction \(transactionID) was stored before \(bundleID) finished transactions, or is a subscription period: nothing to finish"
                    : "\(bundleID) does not finish transactions (finish_transactions in SUBSCRIPTIOND_CONFIG)")
        case .unknown:
            throw missing
        }
    }

    /// Sends up to `limit` due finishes; what became of each.
    public func sendDue(limit: Int = 20, now: Date = Date(), logger: Logger) async throws -> [Outcome] {
        var outcomes: [Outcome] = []
        for finish in try await queue.claimDue(limit: limit, lease: Self.claimLease) {
            outcomes.append(try await send(finish, now: now, logger: logger))
        }
        return outcomes
    }

    private func send(_ finish: TransactionFinish, now: Date, logger: Logger) async throws -> Outcome {
        guard apps.app(bundleID: finish.bundleID)?.finishesTransactions == true, let client = api?.client(bundleID: finish.bundleID) else {
            try await queue.markFailed(
                finish, error: "\(finish.bundleID) no longer finishes transactions (finish_transactions or its API key)")
            return .failed
        }
        do {
            try await client.finishTransaction(transactionID: finish.transactionID, environment: finish.environment, logger: logger)
            try await queue.markFinished(finish)
            return .finished
        } catch let error as AppStoreAPIError where !error.isRetryable {
            try await queue.markFailed(finish, error: "App Store Server API: \(error)")
            return .failed
        } catch {
            // 5 s, 10 s, 20 s, ... at most an hour: Apple's outages heal; nothing is lost meanwhile.
            let delay = min(5 * pow(2, Double(min(max(finish.attempts - 1, 0), 10))), 3_600)
            try await queue.scheduleRetry(finish, at: now.addingTimeInterval(delay), error: "App Store Server API: \(error)")
            return .retrying
        }
    }
}
