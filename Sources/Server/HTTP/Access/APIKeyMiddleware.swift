import Access
import Hummingbird
import Logging
import Metrics
import UseCases

/// Guards the `/v1` API: `Authorization: Bearer <key>` must name a live API key (or
/// `ADMIN_TOKEN`), which becomes the request's principal; every other request is 401 with
/// `WWW-Authenticate`. Counts requests by key name and outcome
/// (`subscriptiond_api_requests_total{key, outcome}`); the key itself is never logged or kept.
struct APIKeyMiddleware<Context: PrincipalRequestContext>: RouterMiddleware {
    let authentication: APIKeyAuthentication

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let principal: Principal
        switch authentication.authenticate(authorization: request.headers[.authorization]) {
        case .principal(let found):
            principal = found
        case .refused(let reason):
            Self.count(key: "none", outcome: "unauthorized")
            guard authentication.hasLoaded else {
                throw APIError.unavailable("the API keys have not been read from the database yet")
            }
            throw APIError.unauthorized(reason)
        }
        var context = context
        context.principal = principal
        context.logger[metadataKey: "key"] = "\(principal.name)"
        do {
            let response = try await next(request, context)
            Self.count(key: principal.name, outcome: Self.outcome(response.status.code))
            return response
        } catch let error as APIError {
            Self.count(key: principal.name, outcome: Self.outcome(error.status.code))
            throw error
        } catch {
            Self.count(key: principal.name, outcome: "error")
            throw error
        }
    }

    private static func outcome(_ status: Int) -> String {
        switch status {
        case 403: "forbidden"
        case 401: "unauthorized"
        case 200..<300: "ok"
        case 400..<500: "client_error"
        default: "error"
        }
    }

    private static func count(key: String, outcome: String) {
        Counter(label: "subscriptiond_api_requests_total", dimensions: [("key", key), ("outcome", outcome)]).increment()
    }
}
