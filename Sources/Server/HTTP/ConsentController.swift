import Access
import Foundation
import Hummingbird
import JSON
import UseCases

/// `PUT /v1/subscribers/{app_user_id}/consent {"consumption_data": true|false}`: the user's
/// consent to share consumption data when they ask Apple for a refund (without it, their
/// purchases' CONSUMPTION_REQUESTs are not answered). Answers
/// `{"app_user_id", "consumption_data", "updated_at"}`.
struct ConsentController<Context: PrincipalRequestContext> {
    let consents: ConsumptionConsents
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<Context>) {
        group.add(.putConsent) { request, context in
            let appUserID = try context.parameters.requireDecoded("app_user_id")
            let body = try await QueryRequest.object(request, maxBytes: maxBodyBytes)
            guard case .bool(let consented)? = body["consumption_data"] else {
                throw APIError.malformed("consumption_data is required (true or false)")
            }
            let updatedAt = try await consents.set(appUserID: appUserID, consented: consented, actor: try context.requirePrincipal().actor)
            return try JSONResponse(document: ConsentResponse(appUserID: appUserID, consumptionData: consented, updatedAt: updatedAt))
        }
    }
}

/// The answer of `PUT /v1/subscribers/{id}/consent`.
struct ConsentResponse: Encodable {
    let appUserID: String
    let consumptionData: Bool
    let updatedAt: Date

    private enum CodingKeys: String, CodingKey {
        case appUserID = "app_user_id", consumptionData = "consumption_data", updatedAt = "updated_at"
    }
}
