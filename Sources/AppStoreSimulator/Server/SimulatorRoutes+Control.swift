import Foundation
import Hummingbird
import NIOCore

extension SimulatorRoutes {
    /// `/control/...`: faults, stats and truth, for harnesses that run the simulator as a process.
    static func addControlRoutes(to router: Router<SimulatorRequestContext>, simulator: AppStoreSimulator) {
        router.get("control/stats") { _, _ in
            json(statsJSON(simulator.stats()).bytes())
        }
        router.post("control/stats/reset") { _, _ in
            simulator.resetStats()
            return json(statsJSON(simulator.stats()).bytes())
        }
        router.post("control/faults") { request, _ in
            let body = try await request.body.collect(upTo: maxBodyBytes)
            do {
                try ControlFaultsRequest(json: Array(buffer: body)).apply(to: simulator)
                return json(ControlFaultsRequest.describe(simulator.faults).bytes())
            } catch {
                let message = JSONValue.object([("error", .string("bad_request")), ("message", .string("\(error)"))])
                return json(message.bytes(), status: .badRequest)
            }
        }
        router.get("control/faults") { _, _ in
            json(ControlFaultsRequest.describe(simulator.faults).bytes())
        }
        router.delete("control/faults") { _, _ in
            simulator.clearFaults()
            return json(ControlFaultsRequest.describe(simulator.faults).bytes())
        }
        router.get("control/truth") { request, _ in
            let at = request.uri.queryParameters.get("at_ms", as: Double.self).map { Date(timeIntervalSince1970: $0 / 1_000) }
            return json(Array(simulator.truth(at: at ?? Date()).jsonText(pretty: false).utf8))
        }
        router.get("control/money") { request, _ in
            let query = request.uri.queryParameters
            guard let asked = MoneyQuery(day: query.get("day"), from: query.get("from"), to: query.get("to")) else {
                let message = JSONValue.object([
                    ("error", .string("bad_request")), ("message", .string("day, from and to are UTC days such as 2026-11-01")),
                ])
                return json(message.bytes(), status: .badRequest)
            }
            let money = simulator.money(
                day: asked.day, revenueFrom: asked.from, revenueTo: asked.to, rates: AppStoreSimulator.standardRates(through: asked.day))
            return json(Array(money.jsonText().utf8))
        }
        router.get("control/rates") { request, _ in
            let through = request.uri.queryParameters.get("through").flatMap(SimDay.parse) ?? Date()
            return Response(
                status: .ok, headers: [.contentType: "text/csv; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: AppStoreSimulator.standardRates(through: through).csv)))
        }
    }

    /// `{"total": N, "outcomes": {...}, "endpoints": {...}}`, keys sorted.
    static func statsJSON(_ stats: SimulatorStats) -> JSONValue {
        func counts(_ values: [String: Int]) -> JSONValue {
            .object(values.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
        }
        return .object([
            ("total", .int(stats.total)),
            ("faults", .int(stats.faults)),
            ("outcomes", counts(stats.outcomes)),
            ("endpoints", counts(stats.endpoints)),
            ("api", counts(stats.api)),
        ])
    }
}
