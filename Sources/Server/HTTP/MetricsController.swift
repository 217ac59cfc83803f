import Hummingbird
import Prometheus
import Settings

/// `GET /metrics`: the Prometheus text exposition of the process's registry, behind
/// `METRICS_TOKEN` when one is set (notification volume is a revenue signal).
struct MetricsController<Context: RequestContext> {
    let registry: PrometheusCollectorRegistry
    let token: Secret?

    func addRoutes(to router: Router<Context>) {
        let group = router.group("metrics")
        if let token { group.add(middleware: BearerTokenMiddleware(token: token)) }
        group.get { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: .init(bytes: registry.emitToBuffer())))
        }
    }
}
