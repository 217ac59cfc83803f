import AppStore
import Foundation
import Logging
import Settings

/// `subscriptionctl refunds ORIGINAL_TRANSACTION_ID`: Get Refund History for the customer who
/// owns the transaction, every page. The refunds it lists are Apple's verified word, so they
/// are applied too: a REFUND notification that never arrived heals here.
public struct RefundHistory: Sendable {
    /// The customer's refunded purchases, in the environment Apple answered from.
    public struct Found: Sendable {
        public let environment: AppStoreEnvironment
        public let refunds: [ApplePurchase]
    }

    private let evidence: AppleEvidence
    private let applier: FactApplier

    /// Asks through `evidence` and applies what Apple says with `applier`.
    public init(applier: FactApplier, evidence: AppleEvidence) {
        self.evidence = evidence
        self.applier = applier
    }

    /// The refunds of the customer owning `transactionID`, asked with the App Store Server
    /// API of `bundleID` (nil: the only app with an API key), production then sandbox.
    /// Throws `UseCaseError`: `notFound` when Apple knows no such transaction, `unavailable`
    /// when Apple does not answer now.
    public func refunds(transactionID: String, bundleID: String?, logger: Logger) async throws -> Found {
        let bundleID = try evidence.appWithAPIKey(bundleID)
        let (answer, history) = await evidence.refundHistory(transactionID: transactionID, bundleID: bundleID, logger: logger)
        try await applier.apply(try answer.batches())
        return Found(environment: history.environment, refunds: history.transactions.map(ApplePurchase.init))
    }
}
