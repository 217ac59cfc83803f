import Access
import AppStore
import Foundation
import Hummingbird
import JSON
import UseCases

/// `PUT /v1/subscriptions/{original_transaction_id}/app-account-token {"app_user_id"}`: Set
/// App Account Token at Apple for a purchase made outside the app, then link it to the user as
/// a purchase carrying the token would be. Answers `{"app_account_token", "app_user_id",
/// "bundle_id", "environment", "original_transaction_id"}`.
struct AppAccountTokenAssignmentController<Context: PrincipalRequestContext> {
    let assignment: AppAccountTokenAssignment
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<Context>) {
        group.add(.putSubscriptionAppAccountToken) { request, context in
            let id = try context.parameters.requireDecoded("original_transaction_id")
            let body = try await QueryRequest.object(request, maxBytes: maxBodyBytes)
            guard case .string(let appUserID)? = body["app_user_id"] else {
                throw APIError.malformed("app_user_id is required (a string)")
            }
            let outcome = try await assignment.assign(originalTransactionID: id, appUserID: appUserID, by: try context.requirePrincipal())
            return try JSONResponse(
                document: AppAccountTokenAssignmentResponse(
                    appAccountToken: outcome.token, appUserID: appUserID, bundleID: outcome.bundleID,
                    environment: outcome.environment.rawValue, originalTransactionID: id))
        }
    }
}

/// The answer of `PUT /v1/subscriptions/{id}/app-account-token`.
struct AppAccountTokenAssignmentResponse: Encodable {
    let appAccountToken: String
    let appUserID: String
    let bundleID: String
    let environment: String
    let originalTransactionID: String

    private enum CodingKeys: String, CodingKey {
        case appAccountToken = "app_account_token", appUserID = "app_user_id", bundleID = "bundle_id", environment
        case originalTransactionID = "original_transaction_id"
    }
}
