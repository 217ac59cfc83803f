import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import Webhooks

/// An app backend's webhook endpoint on 127.0.0.1: verifies every signature with its own
/// secret, records what arrived, and answers as scripted (2xx, another status, or a hang).
final class WebhookReceiver: Sendable {
    /// How the next requests are answered.
    enum Behaviour: Sendable {
        case acknowledge
        case status(Int)
        case hang(Duration)
    }

    /// One request as received.
    struct Delivery: Sendable {
        let eventID: String
        let headerEventID: String?
        let type: String
        let originalTransactionID: String
        let signatureValid: Bool
        let body: [UInt8]
        /// Every header as received, in order (names as sent).
        let headers: [(name: String, value: String)]

        /// The first header called `name`, compared case-insensitively.
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    let secret: String
    private let state = Mutex<(behaviour: Behaviour, deliveries: [Delivery], acknowledged: Set<String>)>((.acknowledge, [], []))
    private let group = Mutex<ServiceGroup?>(nil)
    private let boundPort = Mutex<Int>(0)

    init(secret: String) {
        self.secret = secret
    }

    var url: String { "http://127.0.0.1:\(boundPort.withLock { $0 })/hooks" }
    var deliveries: [Delivery] { state.withLock { $0.deliveries } }
    /// Event ids answered 2xx at least once.
    var acknowledged: Set<String> { state.withLock { $0.acknowledged } }

    func behave(_ behaviour: Behaviour) {
        state.withLock { $0.behaviour = behaviour }
    }

    /// Listens on `port` (0: any free one); returns once bound.
    func start(port: Int = 0) async throws {
        let router = Router()
        router.post("/hooks") { request, _ in try await self.receive(request) }
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "test.webhook-receiver")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        self.group.withLock { $0 = group }
        Task { try await group.run() }
        for await bound in stream {
            boundPort.withLock { $0 = bound }
            break
        }
    }

    /// Stops listening: connections are refused until `start(port:)` again.
    func stop() async {
        await group.withLock { $0 }?.triggerGracefulShutdown()
        try? await Task.sleep(for: .milliseconds(200))
    }

    var port: Int { boundPort.withLock { $0 } }

    private func receive(_ request: Request) async throws -> Response {
        let body = Array(try await request.body.collect(upTo: 1 << 22).readableBytesView)
        func header(_ name: String) -> String? {
            request.headers.first { $0.name.canonicalName == name.lowercased() }?.value
        }
        let timestamp = header("Subscriptiond-Timestamp").flatMap { Int64($0) } ?? 0
        let signature = header("Subscriptiond-Signature") ?? ""
        let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        let delivery = Delivery(
            eventID: object["id"] as? String ?? "", headerEventID: header("Subscriptiond-Event-Id"),
            type: object["type"] as? String ?? "",
            originalTransactionID: (object["subscription"] as? [String: Any])?["original_transaction_id"] as? String ?? "",
            signatureValid: WebhookSignature.isValid(header: signature, secret: secret, timestamp: timestamp, body: body),
            body: body, headers: request.headers.map { ($0.name.rawName, $0.value) })
        ContractRecorder.recordWebhook(headers: delivery.headers, body: body)
        let behaviour = state.withLock { state -> Behaviour in
            state.deliveries.append(delivery)
            if case .acknowledge = state.behaviour { state.acknowledged.insert(delivery.eventID) }
            return state.behaviour
        }
        switch behaviour {
        case .acknowledge:
            return Response(status: .noContent)
        case .status(let code):
            return Response(
                status: .init(code: code), body: .init(byteBuffer: ByteBuffer(string: String(repeating: "receiver trouble ", count: 100))))
        case .hang(let duration):
            try await Task.sleep(for: duration)
            return Response(status: .ok)
        }
    }
}
