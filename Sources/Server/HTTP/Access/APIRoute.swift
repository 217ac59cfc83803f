import Access
import HTTPTypes
import Hummingbird

/// Every `/v1` route with the scope it needs: the one table the API's access rules are read
/// from. Controllers add their routes through ``RouterGroup/add(_:use:)``, which refuses a
/// principal whose scopes do not permit the route's with 403 before the handler runs.
/// What depends on the body or the app (signing, another app's data) the use cases judge
/// with the same principal.
enum APIRoute: CaseIterable, Sendable {
    case getSubscriber, deleteSubscriber, getEntitlements, getAppAccountToken, getSubscription, putSubscriptionAppAccountToken
    case postEligibility, postReceipts, postTransactions, postAppTransactions, putConsent, putPurchaseConsumption, postPurchaseDelivered
    case postOfferSignature
    case postGrant, deleteGrant
    case getReport

    /// The method and path under `/v1`.
    var method: HTTPRequest.Method {
        switch self {
        case .getSubscriber, .getEntitlements, .getAppAccountToken, .getSubscription, .getReport: .get
        case .deleteSubscriber, .deleteGrant: .delete
        case .putConsent, .putSubscriptionAppAccountToken, .putPurchaseConsumption: .put
        case .postEligibility, .postReceipts, .postTransactions, .postAppTransactions, .postOfferSignature, .postGrant,
            .postPurchaseDelivered:
            .post
        }
    }

    /// The path under `/v1`, with `:parameters`.
    var path: String {
        switch self {
        case .getSubscriber, .deleteSubscriber: "subscribers/:app_user_id"
        case .getEntitlements: "subscribers/:app_user_id/entitlements"
        case .getAppAccountToken: "subscribers/:app_user_id/app-account-token"
        case .getSubscription: "subscriptions/:original_transaction_id"
        case .putSubscriptionAppAccountToken: "subscriptions/:original_transaction_id/app-account-token"
        case .postEligibility: "eligibility"
        case .postReceipts: "receipts"
        case .postTransactions: "transactions"
        case .postAppTransactions: "app-transactions"
        case .putConsent: "subscribers/:app_user_id/consent"
        case .putPurchaseConsumption: "purchases/:transaction_id/consumption"
        case .postPurchaseDelivered: "purchases/:transaction_id/delivered"
        case .postOfferSignature: "offers/sign"
        case .postGrant: "subscribers/:app_user_id/grants"
        case .deleteGrant: "subscribers/:app_user_id/grants/:grant_id"
        case .getReport: "reports/:metric"
        }
    }

    /// The scope a principal needs to reach the route at all.
    var scope: Scope {
        switch self {
        case .getSubscriber, .getEntitlements, .getAppAccountToken, .getSubscription, .postEligibility: .read
        case .postReceipts, .postTransactions, .postAppTransactions, .putConsent, .putSubscriptionAppAccountToken, .putPurchaseConsumption,
            .postPurchaseDelivered:
            .write
        case .postOfferSignature: .offers
        case .getReport: .reports
        case .deleteSubscriber, .postGrant, .deleteGrant: .admin
        }
    }
}

/// Refuses, with 403, a principal whose scopes do not permit `scope`.
struct ScopeMiddleware<Context: PrincipalRequestContext>: RouterMiddleware {
    let scope: Scope

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let principal = try context.requirePrincipal()
        guard principal.may(scope) else {
            throw APIError.forbidden("the key \(principal.name) lacks the \(scope.rawValue) scope this route needs")
        }
        return try await next(request, context)
    }
}

extension RouterGroup where Context: PrincipalRequestContext {
    /// Adds `route`, guarded by its scope.
    @discardableResult
    func add(
        _ route: APIRoute, use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) -> RouterGroup<Context> {
        group().add(middleware: ScopeMiddleware<Context>(scope: route.scope)).on(RouterPath(route.path), method: route.method, use: handler)
    }
}
