import AppStoreSimulator
import Crypto
import Foundation
import Testing

/// An app's App Store Connect key as subscriptiond holds it: ids and the `.p8` private key.
struct TestAPICredentials {
    let key: SimAPIKey
    let privateKey: P256.Signing.PrivateKey
    let bundleID = "com.example.app"

    /// A fresh key pair, read back from the PEM the simulator writes.
    init() throws {
        let (key, pem) = SimAPIKey.generate()
        self.key = key
        privateKey = try P256.Signing.PrivateKey(pemRepresentation: pem)
    }

    /// A bearer token as Apple specifies it; each part can be spoiled for refusal tests.
    func token(
        signer: P256.Signing.PrivateKey? = nil, keyID: String? = nil, audience: String = "appstoreconnect-v1",
        bundleID: String? = nil, issuedAt: Date = Date(), lifetime: TimeInterval = 300
    ) throws -> String {
        let header: [String: Any] = ["alg": "ES256", "kid": keyID ?? key.keyID, "typ": "JWT"]
        let iat = Int(issuedAt.timeIntervalSince1970)
        let claims: [String: Any] = [
            "iss": key.issuerID, "iat": iat, "exp": iat + Int(lifetime), "aud": audience, "bid": bundleID ?? self.bundleID,
        ]
        let input = JWSSigner.base64URL(try jsonBytes(header)) + "." + JWSSigner.base64URL(try jsonBytes(claims))
        let signature = try (signer ?? privateKey).signature(for: Array(input.utf8))
        return input + "." + JWSSigner.base64URL(signature.rawRepresentation)
    }
}

/// A simulator that accepts `credentials`' tokens.
func apiSimulator(_ credentials: TestAPICredentials) -> AppStoreSimulator {
    let simulator = makeSimulator()
    simulator.setAPIKey(credentials.key)
    return simulator
}

/// One API request with a bearer token; the answer and its JSON (empty when not JSON).
func apiCall(
    _ base: URL, _ path: String, method: String = "GET", token: String?, body: [UInt8] = [], headers: [(String, String)] = []
) async throws -> (response: SimHTTPResponse, json: [String: Any]) {
    var all = headers
    if let token { all.append(("Authorization", "Bearer " + token)) }
    if !body.isEmpty { all.append(("Content-Type", "application/json")) }
    let url = try #require(URL(string: base.absoluteString + path))
    let response = try await SimHTTPClient.send(method, to: url, headers: all, body: body, timeout: .seconds(10))
    let json = (try? jsonObject(response.body)) ?? [:]
    return (response, json)
}

/// Every notification history page for `query`, following the pagination token.
func notificationHistory(_ base: URL, token: String, query: [String: Any]) async throws -> (pages: Int, items: [[String: Any]]) {
    var items: [[String: Any]] = []
    var pagination: String?
    var pages = 0
    repeat {
        let path = "/inApps/v1/notifications/history" + (pagination.map { "?paginationToken=" + $0 } ?? "")
        let (response, json) = try await apiCall(base, path, method: "POST", token: token, body: try jsonBytes(query))
        guard response.status == 200 else { throw TestFailure("history: HTTP \(response.status) \(response.text)") }
        items += json["notificationHistory"] as? [[String: Any]] ?? []
        pages += 1
        pagination = json["hasMore"] as? Bool == true ? json["paginationToken"] as? String : nil
        if pages > 1_000 { throw TestFailure("history does not end") }
    } while pagination != nil
    return (pages, items)
}

/// The `notificationUUID` inside a history item's `signedPayload`.
func notificationUUID(_ item: [String: Any]) throws -> String {
    let payload = try DecodedJWS(try #require(item["signedPayload"] as? String)).payload
    return try #require(payload["notificationUUID"] as? String)
}
