import Hummingbird
import Settings

/// Guards a route with one fixed bearer token (`/metrics` with `METRICS_TOKEN`), compared in
/// constant time.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: Secret

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else {
            throw APIError.unauthorized("missing Authorization: Bearer token")
        }
        let prefix = "Bearer "
        guard header.count > prefix.count, header.prefix(prefix.count).lowercased() == prefix.lowercased(),
            token.matches(header.dropFirst(prefix.count))
        else {
            throw APIError.unauthorized("wrong bearer token")
        }
        return try await next(request, context)
    }
}
