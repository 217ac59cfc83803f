import AppStoreServerAPI
import AppStoreSignature
import Crypto
import Foundation
import HTTPClient
import Logging
import SigningTestSupport

/// One app's keys, a trusted test PKI, a scripted API server and a real libcurl client.
struct APIHarness: Sendable {
    static let keyID = "KEY123ABC"
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"

    let apiKey: P256.Signing.PrivateKey
    let pki: TestPKI
    let server: ScriptedAppStoreAPIServer
    let http: CurlHTTPClient
    let verifier: SignedPayloadVerifier

    /// Runs `body` with a started server and HTTP client, shutting both down afterwards.
    @discardableResult
    static func with<T: Sendable>(_ body: (APIHarness) async throws -> T) async throws -> T {
        let apiKey = P256.Signing.PrivateKey()
        let pki = try TestPKI()
        let server = ScriptedAppStoreAPIServer(
            credentials: .init(key: apiKey.publicKey, keyID: keyID, issuerID: issuerID, bundleID: TestPayloads.bundleID))
        try await server.start()
        var logger = Logger(label: "test.appstore-api")
        logger.logLevel = .warning
        let http = CurlHTTPClient(configuration: .init(), logger: logger)
        let verifier = SignedPayloadVerifier(roots: AppleRootCertificates([pki.root.certificate]))
        let harness = APIHarness(apiKey: apiKey, pki: pki, server: server, http: http, verifier: verifier)
        do {
            let result = try await body(harness)
            try await http.shutdown()
            await server.stop()
            return result
        } catch {
            try? await http.shutdown()
            await server.stop()
            throw error
        }
    }

    /// A client for the test app signing with `key` (the registered one by default).
    func client(
        key: P256.Signing.PrivateKey? = nil,
        rateLimits: AppStoreAPIRateLimits = .init(),
        retries: AppStoreAPIRetryOptions = .init(backoffBase: .milliseconds(20))
    ) throws -> AppStoreAPIClient {
        var logger = Logger(label: "test.appstore-api")
        logger.logLevel = .warning
        return try AppStoreAPIClient(
            bundleID: TestPayloads.bundleID, issuerID: Self.issuerID, keyID: Self.keyID,
            privateKeyPEM: (key ?? apiKey).pemRepresentation,
            productionURL: server.productionURL, sandboxURL: server.sandboxURL, http: http,
            timeout: .seconds(5), verifier: verifier, rateLimits: rateLimits, retries: retries, logger: logger
        )
    }

    /// A transaction signed by the trusted test PKI.
    func signedTransaction(id: String, originalID: String? = nil, environment: String) throws -> String {
        try TestJWS.sign(payload: TestPayloads.transaction(id: id, originalID: originalID, environment: environment), by: pki)
    }

    /// A renewal info signed by the trusted test PKI.
    func signedRenewal(originalID: String, environment: String) throws -> String {
        try TestJWS.sign(payload: TestPayloads.renewal(originalID: originalID, environment: environment), by: pki)
    }

    /// A notification (with a nested signed transaction) signed by the trusted test PKI.
    func signedNotification(type: String, transactionID: String, environment: String) throws -> String {
        let transaction = try signedTransaction(id: transactionID, environment: environment)
        return try TestJWS.sign(
            payload: TestPayloads.notification(type: type, environment: environment, signedTransaction: transaction), by: pki)
    }
}
