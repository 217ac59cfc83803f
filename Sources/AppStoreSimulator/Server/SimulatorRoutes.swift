import Foundation
import Hummingbird
import NIOCore

/// The simulator's routes; handlers stay short and leave the work to `AppStoreSimulator`.
enum SimulatorRoutes {
    /// Bodies larger than this are refused (real receipts stay far below).
    static let maxBodyBytes = 8 << 20

    static func router(for simulator: AppStoreSimulator) -> Router<SimulatorRequestContext> {
        let router = Router(context: SimulatorRequestContext.self)
        router.post("verifyReceipt") { request, context in
            try await verify(request, context: context, endpoint: .production, simulator: simulator)
        }
        router.post("sandbox/verifyReceipt") { request, context in
            try await verify(request, context: context, endpoint: .sandbox, simulator: simulator)
        }
        // Apple answers anything but POST with status 21000.
        router.get("verifyReceipt") { _, _ in
            statusOnly(21000, endpoint: .production, simulator: simulator)
        }
        router.get("sandbox/verifyReceipt") { _, _ in
            statusOnly(21000, endpoint: .sandbox, simulator: simulator)
        }
        router.get("health") { _, _ in
            json(JSONValue.object([("status", .string("ok"))]).bytes())
        }
        addControlRoutes(to: router, simulator: simulator)
        addAPIRoutes(to: router, simulator: simulator)
        addRetentionRoutes(to: router, simulator: simulator)
        addRetentionControlRoutes(to: router, simulator: simulator)
        return router
    }

    /// A JSON response.
    static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    /// A status-only verifyReceipt answer, counted in the stats.
    static func statusOnly(_ code: Int, endpoint: VerifyEndpoint, simulator: AppStoreSimulator) -> Response {
        simulator.record(.status(code), endpoint: endpoint)
        return json(AppStoreSimulator.statusAnswer(code).body)
    }

    /// A header's value, if present.
    static func header(_ name: String, of request: Request) -> String? {
        request.headers[.init(name)!]
    }
}
