import AppStore
import AppStoreServerAPI
import Foundation
import Logging
import Settings
import SubscriptiondCore
import Subscriptions

/// What Apple says now about a receipt or a transaction, as facts to apply: the one place a
/// `verifyReceipt` answer or an App Store Server API lookup becomes ``FactBatch``es, for the
/// worker, the `/v1` API, `revalidate` and `sync` alike.
public struct AppleEvidence: Sendable {
    /// What asking Apple came to.
    public enum Answer: Sendable {
        /// Apple vouched for these facts.
        case facts([FactBatch])
        /// No answer, or one that says "later": the same question can succeed later.
        /// `limited`: the kind that counts toward a small retry budget.
        case retry(reason: String, limited: Bool)
        /// Apple refused for good; `notFound` when it knows no such transaction.
        case refused(reason: String, notFound: Bool)
    }

    private let receipts: ReceiptVerifier
    private let api: AppStoreAPIDirectory?

    /// Asks `verifyReceipt` through `receipts` and the App Store Server API through `api`.
    public init(receipts: ReceiptVerifier, api: AppStoreAPIDirectory?) {
        self.receipts = receipts
        self.api = api
    }

    /// Whether `bundleID` has an App Store Server API key to look anything up with.
    public func canLookUp(bundleID: String) -> Bool {
        api?.client(bundleID: bundleID) != nil
    }

    /// The apps with an App Store Server API key.
    public var bundleIDsWithAPIKey: [String] { api?.bundleIDs ?? [] }

    /// Verifies `receipt` with `verifyReceipt`. With `keepingReceipt` the receipt is kept
    /// with the facts (to verify again later) when Apple's answer carries no newer one.
    public func verify(receipt: String, app: AppCredentials, keepingReceipt: Bool, logger: Logger) async -> Answer {
        switch await receipts.verify(receiptData: receipt, app: app, logger: logger) {
        case .verified(let response, let observedAt, let endpoint):
            var facts = ReceiptFacts(
                verifyResponse: response, bundleID: app.bundleID, observedAt: observedAt, environmentFallback: endpoint)
            if keepingReceipt { facts.latestReceipt = facts.latestReceipt ?? receipt }
            return .facts([FactBatch(facts: facts, observedAt: observedAt)])
        case .retry(let reason, let limited):
            return .retry(reason: reason, limited: limited)
        case .permanent(let reason):
            return .refused(reason: reason, notFound: false)
        }
    }

    /// What the App Store Server API says now about the subscriptions `transactionID` belongs
    /// to (in `environment`, else production then sandbox), with the customer's whole
    /// transaction history when `withHistory`.
    public func lookUp(
        transactionID: String, bundleID: String, environment: AppStoreEnvironment?, withHistory: Bool, logger: Logger
    ) async -> Answer {
        guard let client = api?.client(bundleID: bundleID) else {
            return .refused(
                reason: "\(bundleID) has no App Store Server API key to look transaction \(transactionID) up with", notFound: false)
        }
        do {
            let facts = try await AppleSubscriptionState.facts(
                transactionID: transactionID, environment: environment, withHistory: withHistory, client: client, logger: logger)
            let observedAt = Date()
            return .facts(facts.map { FactBatch(facts: $0, observedAt: observedAt) })
        } catch let error as AppStoreAPIError where error.isRetryable {
            return .retry(reason: "App Store Server API: \(error)", limited: false)
        } catch let error as AppStoreAPIError {
            return .refused(reason: "App Store Server API: \(error)", notFound: error == .notFound)
        } catch {
            // Cancelled, or a failure outside the client's own kinds: nothing refused for good.
            return .retry(reason: "App Store Server API: \(error)", limited: false)
        }
    }

    /// What the App Store Server API says now about the purchase `transactionID` belongs to,
    /// to link it to a user: `lookUp` without history, and, when `readingOriginalVersion` (the
    /// app grandfathers), the customer's original application version (Get App Transaction
    /// Info) on the batch of its environment, recorded for that user. The version is best
    /// effort: without an answer the facts come back without it (the app can still send its
    /// AppTransaction to `POST /v1/app-transactions`).
    public func lookUpForLinking(transactionID: String, bundleID: String, readingOriginalVersion: Bool, logger: Logger) async -> Answer {
        let answer = await lookUp(transactionID: transactionID, bundleID: bundleID, environment: nil, withHistory: false, logger: logger)
        guard readingOriginalVersion, case .facts(let batches) = answer else { return answer }
        return .facts(await addingOriginalVersion(to: batches, transactionID: transactionID, bundleID: bundleID, logger: logger))
    }

    private func addingOriginalVersion(
        to batches: [FactBatch], transactionID: String, bundleID: String, logger: Logger
    ) async -> [FactBatch] {
        guard let client = api?.client(bundleID: bundleID), let first = batches.first else { return batches }
        do {
            let answer = try await client.appTransactionInfo(
                transactionID: transactionID, environment: first.facts.environment, logger: logger)
            guard let version = answer.appTransaction.originalApplicationVersion,
                let index = batches.firstIndex(where: { $0.facts.environment == answer.environment })
            else { return batches }
            var facts = batches[index].facts
            facts.originalApplicationVersion = version
            var batches = batches
            batches[index] = FactBatch(facts: facts, observedAt: batches[index].observedAt)
            return batches
        } catch {
            logger.info("original application version not looked up", metadata: [LogKey.error: "\(error)"])
            return batches
        }
    }
}
