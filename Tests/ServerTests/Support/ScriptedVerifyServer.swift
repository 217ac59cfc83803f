import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// A verifyReceipt stand-in on 127.0.0.1:0 whose answers a test scripts: a responder
/// decides the JSON for each (endpoint, request), and queued faults go first.
final class ScriptedVerifyServer: Sendable {
    /// A scripted misbehaviour for one request.
    enum Fault: Sendable {
        case status(Int, retryable: Bool?)
        case http(Int)
        case hang(Duration)
    }

    /// The endpoint a request arrived at.
    enum Endpoint: String, Sendable { case production, sandbox }

    typealias Responder = @Sendable (_ endpoint: Endpoint, _ request: [String: Any]) -> [String: Any]

    private let state = Mutex<(faults: [Fault], requests: [Endpoint], responder: Responder)>(([], [], { _, _ in ["status": 21002] }))
    private let port = Mutex<Int?>(nil)
    private let group = Mutex<ServiceGroup?>(nil)

    var productionURL: String { "http://127.0.0.1:\(port.withLock { $0 } ?? 0)/verifyReceipt" }
    var sandboxURL: String { "http://127.0.0.1:\(port.withLock { $0 } ?? 0)/sandbox/verifyReceipt" }

    /// Sets how ordinary requests are answered.
    func respond(with responder: @escaping Responder) {
        state.withLock { $0.responder = responder }
    }

    /// Answers every ordinary request with the same JSON object.
    func answerAlways(_ object: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: object)
        respond { _, _ in (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:] }
    }

    /// Answers every receipt minted by `NotificationBodies.renewal(originalTransactionID:)` with one active
    /// monthly period of that subscription, the way Apple answers with a receipt's latest state.
    func answerOneActivePeriodPerReceipt() {
        respond { _, request in
            let id =
                (request["receipt-data"] as? String).flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) } ?? "0"
            return [
                "status": 0, "environment": "Production",
                "latest_receipt_info": [
                    [
                        "transaction_id": id, "original_transaction_id": id, "product_id": "com.example.pro.monthly",
                        "purchase_date_ms": NotificationBodies.ms(daysAgo(1)), "expires_date_ms": NotificationBodies.ms(daysAgo(-29)),
                        "is_trial_period": "false",
                    ]
                ],
                "pending_renewal_info": [["original_transaction_id": id, "auto_renew_status": "1"]],
            ]
        }
    }

    /// Queues faults for the next requests, in order.
    func inject(_ faults: [Fault]) {
        state.withLock { $0.faults += faults }
    }

    /// Endpoints hit so far, in order.
    var requests: [Endpoint] { state.withLock { $0.requests } }

    /// Starts listening; returns once the port is bound.
    func start() async throws {
        let router = Router()
        router.post("/verifyReceipt") { request, _ in try await self.answer(request, endpoint: .production) }
        router.post("/sandbox/verifyReceipt") { request, _ in try await self.answer(request, endpoint: .sandbox) }
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "test.verify-server")
        logger.logLevel = .warning
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        self.group.withLock { $0 = group }
        Task { try await group.run() }
        for await bound in stream {
            port.withLock { $0 = bound }
            break
        }
    }

    /// Stops the server.
    func stop() async {
        await group.withLock { $0 }?.triggerGracefulShutdown()
    }

    private func answer(_ request: Request, endpoint: Endpoint) async throws -> Response {
        let body = try await request.body.collect(upTo: 1 << 24)
        let parsed = (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:]
        let (fault, responder) = state.withLock { state -> (Fault?, Responder) in
            state.requests.append(endpoint)
            return (state.faults.isEmpty ? nil : state.faults.removeFirst(), state.responder)
        }
        let json: [String: Any]
        switch fault {
        case .http(let code)?:
            return Response(status: .init(code: code), body: .init(byteBuffer: ByteBuffer(string: "upstream trouble")))
        case .hang(let duration)?:
            try await Task.sleep(for: duration)
            json = ["status": 21005]
        case .status(let status, let retryable)?:
            json = retryable.map { ["status": status, "is-retryable": $0] } ?? ["status": status]
        case nil:
            json = responder(endpoint, parsed)
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        let data = try JSONSerialization.data(withJSONObject: json)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
