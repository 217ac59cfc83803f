import Hummingbird
import Prometheus

/// `GET /metrics`: the Prometheus text exposition of the process's registry.
struct MetricsController<Context: RequestContext> {
    let registry: PrometheusCollectorRegistry

    func addRoutes(to router: Router<Context>) {
        router.get("/metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: .init(bytes: registry.emitToBuffer())))
        }
    }
}
