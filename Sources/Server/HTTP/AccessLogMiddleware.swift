import Hummingbird
import Logging

/// One access-log line per request, after its answer: method, route template (never the
/// path's values: a user id is not logged), status and duration, with the request id
/// (`hb.request.id`) every line of the request carries. Never a body, a token or a receipt.
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context, status: response.status.code, since: started)
            return response
        } catch {
            log(request, context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: started)
            throw error
        }
    }

    private func log(_ request: Request, _ context: Context, status: Int, since started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.info(
            "request",
            metadata: [
                "http.method": "\(request.method)",
                "http.route": "\(context.endpointPath ?? "unmatched")",
                "http.status": "\(status)",
                "duration_ms": "\((milliseconds * 100).rounded() / 100)",
            ])
    }
}
