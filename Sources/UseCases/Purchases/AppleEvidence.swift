import AppStore
import AppStoreServerAPI
import Foundation
import Logging
import ServiceSupport
import Settings
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

        /// The facts, or the refusal as a use case says it to an operator or a caller.
        public func batches() throws(UseCaseError) -> [FactBatch] {
            switch self {
            case .facts(let batches): return batches
            case .refused(let reason, notFound: true): throw .notFound(reason)
            case .refused(let reason, _): throw .signatureRejected(reason)
            case .retry(let reason, _): throw .unavailable("Apple did not answer now; nothing was applied: \(reason)")
            }
        }
    }

    private let receipts: any ReceiptVerifying
    private let api: AppStoreAPIDirectory?

    /// Asks `verifyReceipt` through `receipts` and the App Store Server API through `api`.
    public init(receipts: any ReceiptVerifying, api: AppStoreAPIDirectory?) {
        self.receipts = receipts
        self.api = api
    }

    /// `bundleID`, or the only app with an API key; it must have one (`hint` ends the refusal).
    public func appWithAPIKey(_ bundleID: String?, hint: String = "") throws(UseCaseError) -> String {
        guard let bundleID = bundleID ?? (bundleIDsWithAPIKey.count == 1 ? bundleIDsWithAPIKey.first : nil) else {
            throw .malformed("bundle_id is required when not exactly one app has an App Store Server API key")
        }
        guard canLookUp(bundleID: bundleID) else {
            throw .malformed(
                "\(bundleID) has no App Store Server API key (APPSTORE_ISSUER_ID, APPSTORE_KEY_ID, APPSTORE_PRIVATE_KEY_FILE)\(hint)")
        }
        return bundleID
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
        switch await receipts.verify(
            receiptData: receipt, bundleID: app.bundleID, sharedSecret: app.sharedSecret?.revealed, logger: logger)
        {
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
        } catch {
            return Self.answer(for: error)
        }
    }

    /// Set App Account Token: attaches `token` to the purchase `originalTransactionID` at Apple.
    /// Refusals are said as a use case says them: unknown purchase 404, Apple's 400 malformed,
    /// no answer unavailable.
    public func setAppAccountToken(
        originalTransactionID: String, token: String, bundleID: String, environment: AppStoreEnvironment, logger: Logger
    ) async throws(UseCaseError) {
        guard let client = api?.client(bundleID: bundleID) else {
            throw .notConfigured("\(bundleID) has no App Store Server API key to set an app account token with")
        }
        do {
            try await client.setAppAccountToken(
                originalTransactionID: originalTransactionID, token: token, environment: environment, logger: logger)
        } catch {
            switch Self.answer(for: error) {
            case .refused(let reason, notFound: true): throw .notFound("Apple knows no purchase \(originalTransactionID): \(reason)")
            case .refused(let reason, _): throw .malformed("Apple refused the app account token: \(reason)")
            case .retry(let reason, _): throw .unavailable("Apple did not answer now; nothing was set: \(reason)")
            case .facts: throw .unavailable("Apple answered something unexpected; nothing was set")
            }
        }
    }

    /// What an App Store Server API failure means: retry later, or refused for good.
    private static func answer(for error: any Error) -> Answer {
        guard let error = error as? AppStoreAPIError else {
            // Cancelled, or a failure outside the client's own kinds: nothing refused for good.
            return .retry(reason: "App Store Server API: \(error)", limited: false)
        }
        return error.isRetryable
            ? .retry(reason: "App Store Server API: \(error)", limited: false)
            : .refused(reason: "App Store Server API: \(error)", notFound: error == .notFound)
    }

    /// What Look Up Order ID says of `orderID` (production only), as facts: the order's own
    /// transactions, and for each subscription among them what Get All Subscription Statuses
    /// says now (its renewal info with it). `.refused(notFound: true)` for an order Apple
    /// does not know for this app.
    public func lookUpOrder(_ orderID: String, bundleID: String, logger: Logger) async -> (Answer, [JWSTransactionPayload]) {
        guard let client = api?.client(bundleID: bundleID) else {
            return (.refused(reason: "\(bundleID) has no App Store Server API key to look order \(orderID) up with", notFound: false), [])
        }
        do {
            guard case .valid(let transactions) = try await client.lookUpOrder(orderID, logger: logger) else {
                return (.refused(reason: "the App Store knows no order \(orderID) for \(bundleID)", notFound: true), [])
            }
            var facts = transactions.map {
                ReceiptFacts(signedTransaction: $0, renewalInfo: nil, bundleID: client.bundleID, environment: .production)
            }
            var subscriptions = Set<String>()
            for transaction in transactions where transaction.expiresDate != nil {
                guard let original = transaction.originalTransactionID, subscriptions.insert(original).inserted else { continue }
                facts += try await AppleSubscriptionState.facts(
                    transactionID: original, environment: .production, withHistory: false, client: client, logger: logger)
            }
            let observedAt = Date()
            return (.facts(facts.map { FactBatch(facts: $0, observedAt: observedAt) }), transactions)
        } catch {
            return (Self.answer(for: error), [])
        }
    }

    /// Every page of Get Refund History for the customer owning `transactionID` (production,
    /// then sandbox), as facts: each refunded transaction.
    public func refundHistory(
        transactionID: String, bundleID: String, logger: Logger
    ) async -> (Answer, (environment: AppStoreEnvironment, transactions: [JWSTransactionPayload])) {
        guard let client = api?.client(bundleID: bundleID) else {
            return (.refused(reason: "\(bundleID) has no App Store Server API key", notFound: false), (.production, []))
        }
        do {
            let history = try await client.refundHistory(transactionID: transactionID, logger: logger)
            let observedAt = Date()
            let batches = history.transactions.map {
                FactBatch(
                    facts: ReceiptFacts(
                        signedTransaction: $0, renewalInfo: nil, bundleID: client.bundleID, environment: history.environment),
                    observedAt: observedAt)
            }
            return (.facts(batches), history)
        } catch {
            return (Self.answer(for: error), (.production, []))
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
