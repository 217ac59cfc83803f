import AppStore
import Foundation
import Logging
import Settings

/// `subscriptionctl lookup-order ORDER_ID [--link APP_USER_ID]`: a customer writes "I paid and
/// have nothing" and quotes the order id of Apple's email receipt. Look Up Order ID finds the
/// order's purchases; they are applied like any of Apple's verified word (and, with a user,
/// linked to them under the app's link policy).
public struct OrderLookup: Sendable {
    /// What the lookup found and applied.
    public struct Found: Sendable {
        public let orderID: String
        public let bundleID: String
        public let purchases: [ApplePurchase]
        /// The user the purchases were linked to, if one was given.
        public let linkedTo: String?
    }

    private let evidence: AppleEvidence
    private let applier: FactApplier

    /// Looks orders up through `evidence` and applies what Apple says with `applier`.
    public init(applier: FactApplier, evidence: AppleEvidence) {
        self.evidence = evidence
        self.applier = applier
    }

    /// Looks `orderID` up with the App Store Server API of `bundleID` (nil: the only app with
    /// an API key) and applies the order's purchases, linking them to `appUserID` when given.
    /// Throws `UseCaseError`: `notFound` for an order Apple does not know, `unavailable` when
    /// Apple does not answer now, `ownedByOtherUser` when the link policy refuses the link.
    public func lookUp(orderID: String, bundleID: String?, linkTo appUserID: String?, logger: Logger) async throws -> Found {
        let bundleID = try evidence.appWithAPIKey(bundleID)
        let (answer, transactions) = await evidence.lookUpOrder(orderID, bundleID: bundleID, logger: logger)
        try await applier.apply(try answer.batches(), appUserID: appUserID)
        return Found(orderID: orderID, bundleID: bundleID, purchases: transactions.map(ApplePurchase.init), linkedTo: appUserID)
    }
}
