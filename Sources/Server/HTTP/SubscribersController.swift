import Foundation
import Hummingbird
import Logging
import Postgres
import Store
import SubscriptiondCore
import Subscriptions

/// `GET /v1/subscribers/{app_user_id}`, `POST /v1/eligibility`.
struct SubscribersController<Context: RequestContext> {
    let answers: ReadAnswers
    let verifier: ReceiptVerifier
    let apps: AppRegistry
    let eligibility: EligibilityService
    let lookup: TransactionLookup
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("subscribers/:app_user_id") { _, context in
            let appUserID = try context.parameters.require("app_user_id")
            guard let answer = try await answers.subscriberBody(appUserID: appUserID) else {
                throw APIError.notFound("no subscriber with app_user_id \(appUserID)")
            }
            ReadAnswerMetrics.record(.subscriber, answer.origin)
            return JSONBodyResponse(body: answer.body)
        }
        group.post("eligibility") { request, context in
            try await postEligibility(request, context: context)
        }
    }

    private func postEligibility(_ request: Request, context: Context) async throws -> JSONResponse<EligibilityDocument> {
        let body = try await QueryRequest.object(request, maxBytes: maxBodyBytes)
        guard let productIDs = QueryRequest.strings(body, "product_ids"), !productIDs.isEmpty,
              productIDs.count <= EligibilityService.maximumProducts, productIDs.allSatisfy({ !$0.isEmpty })
        else {
            throw APIError.malformed("product_ids must be a list of 1 to \(EligibilityService.maximumProducts) product ids")
        }
        let appUserID = try QueryRequest.optionalString(body, "app_user_id")
        let receiptData = try QueryRequest.optionalString(body, "receipt_data", maxLength: maxBodyBytes)
        let answers: [String: EligibilityAnswer]
        switch (appUserID, receiptData) {
        case (let appUserID?, nil):
            let answered = try await eligibility.answersWithOrigin(appUserID: appUserID, productIDs: productIDs)
            ReadAnswerMetrics.record(.eligibility, answered.origin)
            answers = answered.answers
        case (nil, let receiptData?):
            let submission = try ReceiptSubmission(receiptData: receiptData, bundleID: try QueryRequest.optionalString(body, "bundle_id"), apps: apps)
            let facts = submission.isLookedUp(by: lookup)
                ? try await lookedUpFacts(submission, logger: context.logger)
                : try await verifiedFacts(submission, logger: context.logger)
            answers = try await eligibility.answers(receipts: facts, productIDs: productIDs)
        default:
            throw APIError.malformed("give exactly one of app_user_id and receipt_data")
        }
        return JSONResponse(document: EligibilityDocument(eligibility: answers.mapValues(\.rawValue)))
    }

    /// The receipt's facts from `verifyReceipt`.
    private func verifiedFacts(_ submission: ReceiptSubmission, logger: Logger) async throws -> [ReceiptFacts] {
        switch await verifier.verify(receiptData: submission.receiptData, app: submission.app, logger: logger) {
        case .verified(let response, let observedAt, let endpoint):
            return [ReceiptFacts(verifyResponse: response, bundleID: submission.app.bundleID, observedAt: observedAt, environmentFallback: endpoint)]
        case .retry:
            throw APIError.unavailable("the App Store cannot verify the receipt right now; retry later")
        case .permanent(let reason):
            throw APIError.receiptRejected("the App Store rejected the receipt: \(reason)")
        }
    }

    /// For an app without a shared secret: the customer's statuses and whole transaction
    /// history from the App Store Server API, found by the transaction id the receipt names
    /// (an offer used years ago in the group counts, so the history is needed).
    private func lookedUpFacts(_ submission: ReceiptSubmission, logger: Logger) async throws -> [ReceiptFacts] {
        let transactionID = try submission.transactionIDToLookUp()
        switch try await lookup.facts(transactionID, bundleID: submission.app.bundleID, withHistory: true, logger: logger) {
        case .success(let facts)?:
            return facts
        case .failure(.notFound)?:
            throw APIError.receiptRejected("the App Store does not know the receipt's transaction \(transactionID) in either environment")
        case .failure(let error)? where !error.isRetryable:
            throw APIError.receiptRejected("the App Store Server API refused the lookup: \(error)")
        case .failure, nil:
            throw APIError.unavailable("the App Store Server API cannot answer right now; retry later")
        }
    }
}
