import Access
import Foundation
import Store
import StoredAnswers
import Subscriptions

/// Answers "may this customer see the intro offer of these products?" — the same answer
/// for `POST /v1/eligibility` and `subscriptionctl eligibility`.
public struct EligibilityService: Sendable {
    /// At most this many products per question.
    public static let maximumProducts = 100

    private let policy: EligibilityPolicy
    private let readAnswers: ReadAnswers

    /// Creates the service over the process's `readAnswers` (its stored answers and the
    /// catalog it keeps per generation).
    public init(policy: EligibilityPolicy, readAnswers: ReadAnswers) {
        self.policy = policy
        self.readAnswers = readAnswers
    }

    /// Answers for a user known by `app_user_id` (an unknown user is a new customer), from
    /// the user's stored group usage while it is current, else from the stored facts. Only
    /// environments that grant in their app count (`sandbox_entitlement`, Xcode). These answers
    /// are never signed: a signature is judged for a verified Apple account (``OfferSignatures``).
    /// The product ids among `productIDs` that apps in `apps` sell (products the catalog does
    /// not list are kept: they answer `unknown_product` to everyone).
    public func visible(_ productIDs: [String], to apps: AppScope) async throws -> Set<String> {
        guard case .only = apps else { return Set(productIDs) }
        let catalog = try await readAnswers.catalog()
        return Set(productIDs.filter { id in catalog.product(id).map { apps.contains($0.bundleID) } ?? true })
    }

    public func answers(appUserID: String, productIDs: [String], now: Date = Date()) async throws -> [String: EligibilityAnswer] {
        try await answersWithOrigin(appUserID: appUserID, productIDs: productIDs, now: now).answers
    }

    /// `answers(appUserID:productIDs:now:)`, and whether they came from a stored answer.
    public func answersWithOrigin(
        appUserID: String, productIDs: [String], now: Date = Date()
    ) async throws -> (answers: [String: EligibilityAnswer], origin: ReadAnswers.Origin) {
        let facts = try await readAnswers.eligibilityFacts(appUserID: appUserID, now: now)
        return (EligibilityRule.answers(for: productIDs, catalog: facts.catalog, usage: facts.usage, policy: policy), facts.origin)
    }

    /// Answers for facts Apple gave just now: a receipt verified with `verifyReceipt`, or a
    /// customer's statuses and transaction history from the App Store Server API; only
    /// environments that grant in their app count.
    public func answers(receipts: [ReceiptFacts], productIDs: [String], now: Date = Date()) async throws -> [String: EligibilityAnswer] {
        let catalog = try await readAnswers.catalog()
        return EligibilityRule.answers(
            for: productIDs, catalog: catalog, history: CustomerHistory(receipts: receipts).counting(under: readAnswers.policies), now: now,
            policy: policy)
    }
}
