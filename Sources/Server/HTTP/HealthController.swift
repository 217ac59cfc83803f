import Hummingbird
import Logging
import Postgres
import Store

/// `GET /health/live` (the process answers) and `GET /health/ready` (the database is
/// reachable and its schema current), for orchestrators.
struct HealthController<Context: RequestContext> {
    let database: PostgresClient
    let migrations: MigrationRunner

    func addRoutes(to router: Router<Context>) {
        router.get("/health/live") { _, _ in
            HealthResponse(status: "ok")
        }
        router.get("/health/ready") { _, context in
            do {
                try await migrations.requireCurrent()
                return HealthResponse(status: "ready")
            } catch let error as MigrationError {
                throw APIError.unavailable("not ready: \(error)")
            } catch {
                context.logger.warning("readiness check failed", metadata: [LogKey.error: "\(error)"])
                throw APIError.unavailable("not ready: the database is unreachable")
            }
        }
    }
}

/// The body of a health answer.
struct HealthResponse: ResponseEncodable {
    let status: String
}
