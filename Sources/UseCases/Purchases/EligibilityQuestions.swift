import Access
import Logging
import Settings
import StoredAnswers
import Subscriptions

/// `POST /v1/eligibility`, whoever asks: the answers for a customer known by `app_user_id` or
/// by a receipt, and, when asked to sign, Apple's eligibility JWS for a customer this server
/// verified (``OfferSignatures``).
public struct EligibilityQuestions: Sendable {
    /// Who the question is about.
    public enum Customer: Sendable {
        /// An app user known here.
        case appUser(String)
        /// The Apple account of a receipt, asked of Apple now (nothing is stored).
        case receipt(String)
    }

    /// One question.
    public struct Question: Sendable {
        public var customer: Customer
        public var productIDs: [String]
        /// The app (nil: the only one that fits).
        public var bundleID: String?
        /// Sign the answers for the customer of this transaction (nil: do not sign).
        public var signingTransactionID: String?
        /// The apps of the principal asking (set by `answer(_:by:logger:)`): a receipt of
        /// another app is refused.
        var apps: AppScope = .all

        public init(customer: Customer, productIDs: [String], bundleID: String?, signingTransactionID: String?) {
            self.customer = customer
            self.productIDs = productIDs
            self.bundleID = bundleID
            self.signingTransactionID = signingTransactionID
        }
    }

    /// The answers, their signatures when asked for, and whether they came from a stored answer.
    public struct Answer: Sendable {
        public var answers: [String: EligibilityAnswer]
        public let signatures: [String: String]?
        /// Where an unsigned answer about an app user came from (nil for the other questions).
        public let origin: ReadAnswers.Origin?
    }

    private let eligibility: EligibilityService
    private let offers: OfferSignatures
    private let purchases: PurchaseRecorder
    private let apps: AppRegistry

    public init(eligibility: EligibilityService, offers: OfferSignatures, purchases: PurchaseRecorder, apps: AppRegistry) {
        self.eligibility = eligibility
        self.offers = offers
        self.purchases = purchases
        self.apps = apps
    }

    /// Answers `question` for `principal`: signing needs the `offers` scope, a named app or a
    /// receipt's app must be one it sees, and products of apps it does not see answer
    /// `unknown_product` (and are never signed).
    public func answer(_ question: Question, by principal: Principal, logger: Logger) async throws -> Answer {
        if question.signingTransactionID != nil, !principal.may(.offers) {
            throw UseCaseError.forbidden("the key \(principal.name) lacks the offers scope that signing needs")
        }
        if let bundleID = question.bundleID { try principal.apps.require(bundleID) }
        try Self.check(question.productIDs)
        var question = question
        question.apps = principal.apps
        let visible = try await eligibility.visible(question.productIDs, to: principal.apps)
        guard visible.count < Set(question.productIDs).count else { return try await answer(question, logger: logger) }
        var narrowed = question
        narrowed.productIDs = question.productIDs.filter(visible.contains)
        var answer =
            narrowed.productIDs.isEmpty
            ? Answer(answers: [:], signatures: question.signingTransactionID == nil ? nil : [:], origin: nil)
            : try await self.answer(narrowed, logger: logger)
        for productID in question.productIDs where !visible.contains(productID) {
            answer.answers[productID] = .unknownProduct
        }
        return answer
    }

    /// Answers `question`. Throws `UseCaseError`: `malformed` for too many or empty product
    /// ids or a receipt that does not parse, `unverifiedTransaction` when signing for a
    /// transaction not verified for the customer, and what asking Apple about a receipt throws.
    func answer(_ question: Question, logger: Logger) async throws -> Answer {
        let productIDs = question.productIDs
        try Self.check(productIDs)
        switch question.customer {
        case .appUser(let appUserID):
            if let transactionID = question.signingTransactionID {
                let signed = try await offers.eligibility(
                    appUserID: appUserID, transactionID: transactionID, productIDs: productIDs, bundleID: question.bundleID)
                return Answer(answers: signed.answers, signatures: signed.signatures, origin: nil)
            }
            let answered = try await eligibility.answersWithOrigin(appUserID: appUserID, productIDs: productIDs)
            return Answer(answers: answered.answers, signatures: nil, origin: answered.origin)
        case .receipt(let receiptData):
            let submission = try ReceiptSubmission(receiptData: receiptData, bundleID: question.bundleID, apps: apps)
            try question.apps.require(submission.app.bundleID)
            let facts = try await purchases.facts(of: submission, logger: logger)
            if let transactionID = question.signingTransactionID {
                let signed = try await offers.eligibility(
                    receipts: facts, transactionID: transactionID, productIDs: productIDs, bundleID: question.bundleID)
                return Answer(answers: signed.answers, signatures: signed.signatures, origin: nil)
            }
            return Answer(answers: try await eligibility.answers(receipts: facts, productIDs: productIDs), signatures: nil, origin: nil)
        }
    }

    private static func check(_ productIDs: [String]) throws {
        guard !productIDs.isEmpty, productIDs.count <= EligibilityService.maximumProducts, productIDs.allSatisfy({ !$0.isEmpty }) else {
            throw UseCaseError.malformed("product_ids must be a list of 1 to \(EligibilityService.maximumProducts) product ids")
        }
    }
}
