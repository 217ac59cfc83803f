import Hummingbird
import Logging
import Store

/// `GET /health/live` (the process answers) and `GET /health/ready` (the database is
/// reachable and its schema current), for orchestrators.
///
/// Readiness is unauthenticated, so its database check is shared: callers within
/// `ReadinessCache.freshness` of the last check get that check's answer instead of
/// running queries of their own.
struct HealthController<Context: RequestContext> {
    let readiness: ReadinessCache

    func addRoutes(to router: Router<Context>) {
        router.get("/health/live") { _, _ in
            HealthResponse(status: "ok")
        }
        router.get("/health/ready") { _, context in
            if let problem = await readiness.problem(logger: context.logger) {
                throw APIError.unavailable("not ready: \(problem)")
            }
            return HealthResponse(status: "ready")
        }
    }
}

/// The body of a health answer.
struct HealthResponse: ResponseEncodable {
    let status: String
}
