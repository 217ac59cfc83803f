import Foundation
import Hummingbird

extension SimulatorRoutes {
    /// `/control/retention`: Apple's review of retention uploads and the performance test's
    /// configuration, for harnesses that run the simulator as a process.
    static func addRetentionControlRoutes(to router: Router<SimulatorRequestContext>, simulator: AppStoreSimulator) {
        router.get("control/retention") { _, _ in
            json(ControlRetentionRequest.describe(simulator).bytes())
        }
        router.post("control/retention") { request, _ in
            let body = try await request.body.collect(upTo: maxBodyBytes)
            do {
                try ControlRetentionRequest(json: Array(buffer: body)).apply(to: simulator)
                return json(ControlRetentionRequest.describe(simulator).bytes())
            } catch {
                return controlError("\(error)")
            }
        }
        // {"identifier": UUID, "state": "APPROVED"|"REJECTED"|"PENDING", "bundle_id"?, "environment"?}
        router.post("control/retention/review") { request, _ in
            let body = try await request.body.collect(upTo: maxBodyBytes)
            guard let object = (try? JSONSerialization.jsonObject(with: Data(Array(buffer: body)))) as? [String: Any],
                let identifier = object["identifier"] as? String,
                let state = (object["state"] as? String).flatMap(SimReviewState.init(rawValue:))
            else {
                return controlError(
                    "the body is {\"identifier\": UUID, \"state\": \"APPROVED\"|\"REJECTED\"|\"PENDING\"}, optionally bundle_id and environment"
                )
            }
            let environment = (object["environment"] as? String).flatMap(SimEnvironment.init(rawValue:)) ?? .production
            guard simulator.reviewRetentionUpload(identifier, as: state, bundleID: object["bundle_id"] as? String, environment: environment)
            else {
                let message = JSONValue.object([("error", .string("not_found")), ("message", .string("no such message or image"))])
                return json(message.bytes(), status: .notFound)
            }
            return json(JSONValue.object([("identifier", .string(identifier.lowercased())), ("state", .string(state.rawValue))]).bytes())
        }
    }

    /// A 400 answer of a control endpoint.
    private static func controlError(_ message: String) -> Response {
        json(JSONValue.object([("error", .string("bad_request")), ("message", .string(message))]).bytes(), status: .badRequest)
    }
}
