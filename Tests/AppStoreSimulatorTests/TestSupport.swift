import AppStoreSimulator
import Foundation

/// A fixed "now" so bodies and ids do not depend on the clock (2026-01-15 12:00:00 UTC).
let fixedEnd = Date(timeIntervalSince1970: 1_768_478_400)

/// The demo configuration with a known secret.
func makeSimulator(seed: UInt64 = 42) -> AppStoreSimulator {
    AppStoreSimulator(configuration: .demo(seed: seed, sharedSecret: "s3cret"))
}

/// Parses JSON bytes into a dictionary.
func jsonObject(_ bytes: [UInt8]) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
        throw TestFailure("not a JSON object: \(String(decoding: bytes, as: UTF8.self))")
    }
    return object
}

/// JSON bytes for a request body.
func jsonBytes(_ object: [String: Any]) throws -> [UInt8] {
    Array(try JSONSerialization.data(withJSONObject: object))
}

/// A verifyReceipt request body.
func verifyBody(_ receipt: String, password: String? = "s3cret", excludeOld: Bool? = nil) throws -> [UInt8] {
    var object: [String: Any] = ["receipt-data": receipt]
    if let password { object["password"] = password }
    if let excludeOld { object["exclude-old-transactions"] = excludeOld }
    return try jsonBytes(object)
}

/// POSTs a JSON body and decodes the JSON answer.
func post(_ url: URL, _ body: [UInt8], headers: [(String, String)] = []) async throws -> (status: Int, json: [String: Any]) {
    let answer = try await SimHTTPClient.send(
        to: url, headers: [("Content-Type", "application/json")] + headers, body: body, timeout: .seconds(5)
    )
    return (answer.status, try jsonObject(answer.body))
}

/// Runs `body` against a started server and always shuts it down.
func withServer<T>(_ simulator: AppStoreSimulator, _ body: (SimulatorServer) async throws -> T) async throws -> T {
    let server = try await SimulatorServer.start(simulator: simulator, host: "127.0.0.1", port: 0)
    do {
        let result = try await body(server)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}

/// The notification types of a customer, in order.
func types(_ customer: SimCustomer) -> [String] {
    customer.notifications.compactMap { $0.type?.rawValue }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
