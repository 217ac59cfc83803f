import AppStoreSimulator
import Foundation
import Hummingbird
import Logging
import NIOCore
import Postgres
import ServiceLifecycle
import SigningTestSupport
import Synchronization
import TestSupport
import Testing

/// Issue 37, item 9: `subscriptionctl`'s App Store Server API commands verify what Apple signs
/// exactly as subscriptiond does, online (OCSP) checks included, because both build their
/// verifier and clients in one place (`AppleUpstreams`).
@Suite("subscriptionctl's API session: APPSTORE_ONLINE_CHECKS applies to it too", .serialized)
struct CLIOnlineChecksTests {
    /// A stand-in for Look Up Order ID on 127.0.0.1:0, answering every order with `signedTransaction`.
    final class OrderLookupServer: Sendable {
        private let group = Mutex<ServiceGroup?>(nil)
        private let lookups = Atomic(0)
        let signedTransaction: String

        init(signedTransaction: String) { self.signedTransaction = signedTransaction }

        /// Orders looked up so far.
        var lookupCount: Int { lookups.load(ordering: .relaxed) }

        /// Starts listening; returns the base URL once the port is bound.
        func start() async throws -> String {
            let router = Router()
            router.get("/inApps/v1/lookup/:orderId") { _, _ -> Response in
                self.lookups.add(1, ordering: .relaxed)
                let data = try JSONSerialization.data(withJSONObject: ["status": 0, "signedTransactions": [self.signedTransaction]])
                var headers = HTTPFields()
                headers[.contentType] = "application/json"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
            }
            let (ports, continuation) = AsyncStream<Int>.makeStream()
            var logger = Logger(label: "test.order-lookup")
            logger.logLevel = .warning
            let app = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
            let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
            self.group.withLock { $0 = group }
            Task { try await group.run() }
            var port = 0
            for await bound in ports {
                port = bound
                break
            }
            return "http://127.0.0.1:\(port)"
        }

        func stop() async { await group.withLock { $0 }?.triggerGracefulShutdown() }
    }

    /// A lifetime purchase in Production, signed by a chain whose leaf and intermediate name
    /// OCSP responders on loopback.
    private static func lifetimePurchase(_ chain: OCSPTestChain) throws -> String {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let payload: [String: Any] = [
            "transactionId": "3700000000000009", "originalTransactionId": "3700000000000009", "bundleId": RunningService.bundleID,
            "productId": "com.example.pro.lifetime", "environment": "Production", "purchaseDate": now - 60_000, "signedDate": now,
            "type": "Non-Consumable", "inAppOwnershipType": "PURCHASED", "quantity": 1,
        ]
        return try TestJWS.sign(
            payload: String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self), by: chain.pki)
    }

    @Test(
        "lookup-order with APPSTORE_ONLINE_CHECKS=true refuses a purchase whose leaf its responder says is revoked, storing nothing; without online checks, or with a good answer, it is applied"
    )
    func lookupOrderChecksOnline() async throws {
        let chain = try OCSPTestChain()
        let server = OrderLookupServer(signedTransaction: try Self.lifetimePurchase(chain))
        let apiURL = try await server.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-ocsp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: directory)
            Task { await server.stop() }
        }
        let root = directory.appendingPathComponent("root.pem")
        try Data(chain.pki.root.pem.utf8).write(to: root)
        let (key, privateKeyPEM) = SimAPIKey.generate()
        let keyFile = directory.appendingPathComponent("key.p8")
        try Data(privateKeyPEM.utf8).write(to: keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)

        try await TestDatabase.withClient { database, testDatabase in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(database)
            let settings = [
                "APPSTORE_BUNDLE_ID": RunningService.bundleID, "APPSTORE_APP_APPLE_ID": "1234567890",
                "APPSTORE_ISSUER_ID": key.issuerID, "APPSTORE_KEY_ID": key.keyID, "APPSTORE_PRIVATE_KEY_FILE": keyFile.path,
                "APPSTORE_API_URL": apiURL, "APPSTORE_API_SANDBOX_URL": apiURL,
                "VERIFY_RECEIPT_URL": "http://127.0.0.1:9/verifyReceipt", "VERIFY_RECEIPT_SANDBOX_URL": "http://127.0.0.1:9/sandbox",
                "APPSTORE_ROOT_CERTIFICATES": root.path, "VERIFY_TIMEOUT_MS": "5000",
            ]
            func stored() async throws -> Int {
                try await database.query("SELECT count(*) AS n FROM transactions")[0].decode("n", as: Int.self)
            }
            func lookUp(onlineChecks: Bool) async throws -> CLI.Result {
                try await CLI.run(
                    ["lookup-order", "MTEST00037"], databaseURL: testDatabase.url,
                    environment: settings.merging(["APPSTORE_ONLINE_CHECKS": "\(onlineChecks)"]) { _, new in new })
            }

            // The leaf's responder says revoked: the CLI asks it, as subscriptiond would, and refuses.
            let intermediate = try await chain.intermediateResponder()
            defer { intermediate.stop() }
            let revoked = try await chain.leafResponder(revoked: true)
            let refused = try await lookUp(onlineChecks: true)
            revoked.stop()
            #expect(server.lookupCount == 1, "the order was looked up")
            #expect(refused.status != 0, "a revoked signing certificate must not be applied: \(refused.stdout)")
            #expect(try await stored() == 0)

            // Without online checks the same answer verifies: only the OCSP answer refused it.
            let offline = try await lookUp(onlineChecks: false)
            #expect(offline.status == 0, "\(offline.stderr)")
            #expect(try await stored() == 1)

            // With a "good" answer it is applied online too.
            let good = try await chain.leafResponder()
            defer { good.stop() }
            let online = try await lookUp(onlineChecks: true)
            #expect(online.status == 0, "\(online.stderr)")
            #expect(online.stdout.contains("1 purchase applied"), "\(online.stdout)")
        }
    }
}
