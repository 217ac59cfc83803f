import Access
import ContractDocuments
import Foundation
import Hummingbird
import JSON
import StoredAnswers
import UseCases

/// The entitlement routes: `GET /v1/subscribers/{id}/entitlements` (the paywall's read, one
/// stored answer), manual grants (`POST` / `DELETE /v1/subscribers/{id}/grants`),
/// `GET /v1/subscribers/{id}/app-account-token` and `POST /v1/app-transactions` (a StoreKit 2
/// AppTransaction, for grandfathering).
struct EntitlementsController<Context: PrincipalRequestContext> {
    let answers: ReadAnswers
    let grants: ManualGrants
    let appTransactions: AppTransactionRecorder
    let appAccountTokens: AppAccountTokens
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<Context>) {
        group.add(.getEntitlements) { _, context in
            let appUserID = try context.parameters.requireDecoded("app_user_id")
            return try ReadAnswerMetrics.response(
                try await answers.entitlementsBody(appUserID: appUserID, visibleTo: try context.requirePrincipal().apps), of: .entitlements,
                missing: "no subscriber with app_user_id \(appUserID)")
        }
        group.add(.postGrant) { request, context in
            let appUserID = try context.parameters.requireDecoded("app_user_id")
            let body = try await QueryRequest.object(request, maxBytes: maxBodyBytes)
            let grant = try await grants.add(
                appUserID: appUserID, entitlement: try QueryRequest.string(body, "entitlement"),
                expiresAt: try Self.expiresAt(body),
                reason: try QueryRequest.string(body, "reason", maxLength: ManualGrants.maximumReasonLength),
                actor: try context.requirePrincipal().actor)
            return JSONResponse(status: .created, document: GrantDocument(grant))
        }
        group.add(.deleteGrant) { _, context in
            let appUserID = try context.parameters.requireDecoded("app_user_id")
            let text = try context.parameters.require("grant_id")
            guard let id = Int64(text), id > 0 else { throw APIError.malformed("grant_id must be a positive number, got \(text)") }
            return JSONResponse(
                document: GrantDocument(
                    try await grants.revoke(id: id, appUserID: appUserID, reason: nil, actor: try context.requirePrincipal().actor)))
        }
        group.add(.getAppAccountToken) { request, context in
            let appUserID = try context.parameters.requireDecoded("app_user_id")
            let token = try await appAccountTokens.token(
                for: appUserID, bundleID: request.uri.queryParameters["bundle_id"].map(String.init),
                visibleTo: try context.requirePrincipal().apps)
            return try JSONResponse(document: ["app_account_token": token])
        }
        group.add(.postAppTransactions) { request, context in
            let body = try await QueryRequest.object(request, maxBytes: maxBodyBytes)
            let appUserID = try QueryRequest.string(body, "app_user_id")
            let signed = try QueryRequest.string(body, "signed_app_transaction", maxLength: maxBodyBytes)
            return JSONBodyResponse(
                body: try await appTransactions.record(
                    signedAppTransaction: signed, appUserID: appUserID, visibleTo: try context.requirePrincipal().apps,
                    logger: context.logger))
        }
    }

    /// `expires_at`: an RFC 3339 time, or null / absent for good.
    private static func expiresAt(_ body: [String: JSONValue]) throws -> Date? {
        guard let value = body["expires_at"], value != .null else { return nil }
        guard let text = value.stringValue, let date = RFC3339.parse(text) else {
            throw APIError.malformed("expires_at must be an RFC 3339 time such as 2026-12-01T10:00:00Z, or null")
        }
        return date
    }
}
