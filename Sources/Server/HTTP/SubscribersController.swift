import ContractDocuments
import Hummingbird
import JSON
import Settings
import Store
import StoredAnswers
import Subscriptions
import UseCases

/// `GET` and `DELETE /v1/subscribers/{app_user_id}`, `POST /v1/eligibility` (with `"sign": true`,
/// each answer also as the JWS StoreKit enforces).
struct SubscribersController<Context: RequestContext> {
    let answers: ReadAnswers
    let forgetting: SubscriberForgetting
    let purchases: PurchaseRecorder
    let apps: AppRegistry
    let eligibility: EligibilityService
    let offers: OfferSignatures
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("subscribers/:app_user_id") { _, context in
            let appUserID = try context.parameters.require("app_user_id")
            return try ReadAnswerMetrics.response(
                try await answers.subscriberBody(appUserID: appUserID), of: .subscriber,
                missing: "no subscriber with app_user_id \(appUserID)")
        }
        group.delete("subscribers/:app_user_id") { _, context in
            let appUserID = try context.parameters.require("app_user_id")
            let forgotten = try await forgetting.forget(appUserID: appUserID, actor: "api")
            return try JSONResponse(document: ForgottenResponse(appUserID: appUserID, forgotten: forgotten))
        }
        group.post("eligibility") { request, context in
            try await postEligibility(request, context: context)
        }
    }

    private func postEligibility(_ request: Request, context: Context) async throws -> JSONResponse {
        let body = try await QueryRequest.object(request, maxBytes: maxBodyBytes)
        guard let productIDs = QueryRequest.strings(body, "product_ids"), !productIDs.isEmpty,
            productIDs.count <= EligibilityService.maximumProducts, productIDs.allSatisfy({ !$0.isEmpty })
        else {
            throw APIError.malformed("product_ids must be a list of 1 to \(EligibilityService.maximumProducts) product ids")
        }
        let appUserID = try QueryRequest.optionalString(body, "app_user_id")
        let sign = try QueryRequest.flag(body, "sign")
        let transactionID = try QueryRequest.optionalString(body, "transaction_id")
        let bundleID = try QueryRequest.optionalString(body, "bundle_id")
        if sign, transactionID == nil {
            throw APIError.malformed(
                "sign needs transaction_id: a transaction of the customer this server verified, e.g. AppTransaction's appTransactionID")
        }
        let receiptData = try QueryRequest.optionalString(body, "receipt_data", maxLength: maxBodyBytes)
        switch (appUserID, receiptData, transactionID) {
        case (let appUserID?, nil, let transactionID?) where sign:
            let signed = try await offers.eligibility(
                appUserID: appUserID, transactionID: transactionID, productIDs: productIDs, bundleID: bundleID)
            return JSONResponse(document: EligibilityDocument(signed))
        case (let appUserID?, nil, _):
            let answered = try await eligibility.answersWithOrigin(appUserID: appUserID, productIDs: productIDs)
            ReadAnswerMetrics.record(.eligibility, answered.origin)
            return JSONResponse(document: EligibilityDocument(eligibility: answered.answers.mapValues(\.rawValue)))
        case (nil, let receiptData?, _):
            let submission = try ReceiptSubmission(receiptData: receiptData, bundleID: bundleID, apps: apps)
            let facts = try await purchases.facts(of: submission, logger: context.logger)
            if sign, let transactionID {
                let signed = try await offers.eligibility(
                    receipts: facts, transactionID: transactionID, productIDs: productIDs, bundleID: bundleID)
                return JSONResponse(document: EligibilityDocument(signed))
            }
            let answers = try await eligibility.answers(receipts: facts, productIDs: productIDs)
            return JSONResponse(document: EligibilityDocument(eligibility: answers.mapValues(\.rawValue)))
        default:
            throw APIError.malformed("give exactly one of app_user_id and receipt_data")
        }
    }
}

extension EligibilityDocument {
    /// The answers and their signatures.
    init(_ signed: OfferSignatures.SignedEligibility) {
        self.init(eligibility: signed.answers.mapValues(\.rawValue), signatures: signed.signatures)
    }
}

/// `DELETE /v1/subscribers/{id}`: `{"app_user_id", "forgotten": {"links", "grants", "original_application_versions"}}`.
struct ForgottenResponse: Encodable {
    let appUserID: String
    let forgotten: SubscriberRemoval.Forgotten

    private enum CodingKeys: String, CodingKey {
        case appUserID = "app_user_id", forgotten
    }

    private enum ForgottenKeys: String, CodingKey {
        case links, grants, versions = "original_application_versions"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appUserID, forKey: .appUserID)
        var counts = container.nestedContainer(keyedBy: ForgottenKeys.self, forKey: .forgotten)
        try counts.encode(forgotten.links, forKey: .links)
        try counts.encode(forgotten.grants, forKey: .grants)
        try counts.encode(forgotten.versions, forKey: .versions)
    }
}
