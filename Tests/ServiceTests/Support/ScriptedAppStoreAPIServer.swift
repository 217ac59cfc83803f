import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// An App Store Server API stand-in on 127.0.0.1:0: production under `/prod`, sandbox under
/// `/sandbox`. It checks every bearer token against the expected public key and claims
/// (401 otherwise, as Apple does), records requests, and answers from queued faults first,
/// then from a responder the test sets.
final class ScriptedAppStoreAPIServer: Sendable {
    /// The environment a request arrived at.
    enum Environment: String, Sendable { case production = "prod", sandbox }

    /// One request as the server saw it.
    struct Recorded: Sendable {
        let environment: Environment
        let method: String
        /// The path after the environment prefix, e.g. `/inApps/v1/transactions/1`.
        let path: String
        /// Decoded query items.
        let query: [String: String]
        let token: String?
        let body: [UInt8]
        let arrivedAt: ContinuousClock.Instant
        let arrivedAtDate: Date

        /// The JSON body as an object.
        var jsonBody: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]) ?? [:] }
    }

    /// An answer.
    struct Reply: Sendable {
        var status: Int
        /// Extra headers; only `Retry-After` is sent.
        var headers: [String: String] = [:]
        var body: [UInt8]

        static func json(_ object: [String: Any], status: Int = 200, headers: [String: String] = [:]) -> Reply {
            Reply(status: status, headers: headers, body: Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data()))
        }

        static func error(_ status: Int, code: Int) -> Reply {
            json(["errorCode": code, "errorMessage": "scripted"], status: status)
        }
    }

    typealias Responder = @Sendable (Recorded) -> Reply

    /// Who may call: the public key, key id, issuer id and bundle id a token must match.
    struct Credentials: Sendable {
        let key: P256.Signing.PublicKey
        let keyID: String
        let issuerID: String
        let bundleID: String
    }

    private let credentials: Credentials
    private let state = Mutex<(faults: [Reply], requests: [Recorded], responder: Responder)>(
        ([], [], { _ in .error(404, code: 4_040_010) }))
    private let port = Mutex<Int>(0)
    private let group = Mutex<ServiceGroup?>(nil)

    init(credentials: Credentials) {
        self.credentials = credentials
    }

    var productionURL: String { "http://127.0.0.1:\(port.withLock { $0 })/prod" }
    var sandboxURL: String { "http://127.0.0.1:\(port.withLock { $0 })/sandbox/" }

    /// Sets how authorised requests are answered.
    func respond(with responder: @escaping Responder) {
        state.withLock { $0.responder = responder }
    }

    /// Queues answers for the next authorised requests, in order.
    func inject(_ faults: [Reply]) {
        state.withLock { $0.faults += faults }
    }

    /// Every request so far, authorised or not, in arrival order.
    var requests: [Recorded] { state.withLock { $0.requests } }

    func start() async throws {
        let router = Router()
        router.get("**") { request, _ in try await self.answer(request) }
        router.post("**") { request, _ in try await self.answer(request) }
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "test.appstore-api-server")
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

    func stop() async {
        await group.withLock { $0 }?.triggerGracefulShutdown()
    }

    private func answer(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 1 << 20)
        let fullPath = request.uri.path
        let environment: Environment = fullPath.hasPrefix("/sandbox/") ? .sandbox : .production
        let path = String(fullPath.dropFirst(environment == .sandbox ? "/sandbox".count : "/prod".count))
        var query: [String: String] = [:]
        for (name, value) in request.uri.queryParameters {
            query[String(name)] = String(value)
        }
        let authorization = request.headers[.authorization]
        let token = authorization.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        let recorded = Recorded(
            environment: environment, method: request.method.rawValue, path: path, query: query, token: token,
            body: Array(body.readableBytesView), arrivedAt: .now, arrivedAtDate: Date()
        )
        let authorised =
            token.map {
                TestJWT.isValid(
                    $0, key: credentials.key, keyID: credentials.keyID, issuerID: credentials.issuerID, bundleID: credentials.bundleID)
            } ?? false
        let reply = state.withLock { state -> Reply in
            state.requests.append(recorded)
            guard authorised else { return Reply(status: 401, body: []) }
            return state.faults.isEmpty ? state.responder(recorded) : state.faults.removeFirst()
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if let retryAfter = reply.headers["Retry-After"] {
            headers[.retryAfter] = retryAfter
        }
        return Response(status: .init(code: reply.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: reply.body)))
    }
}
