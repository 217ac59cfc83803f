import Access
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
struct SubscribersController<Context: PrincipalRequestContext> {
    let answers: ReadAnswers
    let forgetting: SubscriberForgetting
    let questions: EligibilityQuestions
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<Context>) {
        group.add(.getSubscriber) { _, context in
            let appUserID = try context.parameters.requireDecoded("app_user_id")
            return try ReadAnswerMetrics.response(
                try await answers.subscriberBody(appUserID: appUserID, visibleTo: try context.requirePrincipal().apps), of: .subscriber,
                missing: "no subscriber with app_user_id \(appUserID)")
        }
        group.add(.deleteSubscriber) { _, context in
            let appUserID = try context.parameters.requireDecoded("app_user_id")
            let forgotten = try await forgetting.forget(appUserID: appUserID, by: try context.requirePrincipal())
            return try JSONResponse(document: ForgottenResponse(appUserID: appUserID, forgotten: forgotten))
        }
        group.add(.postEligibility) { request, context in
            try await postEligibility(request, context: context)
        }
    }

    private func postEligibility(_ request: Request, context: Context) async throws -> JSONResponse {
        let body = try await QueryRequest.object(request, maxBytes: maxBodyBytes)
        guard let productIDs = QueryRequest.strings(body, "product_ids") else {
            throw APIError.malformed("product_ids must be a list of 1 to \(EligibilityService.maximumProducts) product ids")
        }
        let sign = try QueryRequest.flag(body, "sign")
        let transactionID = try QueryRequest.optionalString(body, "transaction_id")
        if sign, transactionID == nil {
            throw APIError.malformed(
                "sign needs transaction_id: a transaction of the customer this server verified, e.g. AppTransaction's appTransactionID")
        }
        let customer: EligibilityQuestions.Customer
        switch (
            try QueryRequest.optionalString(body, "app_user_id"),
            try QueryRequest.optionalString(body, "receipt_data", maxLength: maxBodyBytes)
        ) {
        case (let appUserID?, nil): customer = .appUser(appUserID)
        case (nil, let receiptData?): customer = .receipt(receiptData)
        default: throw APIError.malformed("give exactly one of app_user_id and receipt_data")
        }
        let answer = try await questions.answer(
            EligibilityQuestions.Question(
                customer: customer, productIDs: productIDs, bundleID: try QueryRequest.optionalString(body, "bundle_id"),
                signingTransactionID: sign ? transactionID : nil),
            by: try context.requirePrincipal(), logger: context.logger)
        if let origin = answer.origin { ReadAnswerMetrics.record(.eligibility, origin) }
        return JSONResponse(document: EligibilityDocument(eligibility: answer.answers.mapValues(\.rawValue), signatures: answer.signatures))
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
