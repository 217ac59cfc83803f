import Hummingbird
import Settings

/// Guards the `/v1` query API: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time.
struct AdminTokenMiddleware<Context: RequestContext>: RouterMiddleware {
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
