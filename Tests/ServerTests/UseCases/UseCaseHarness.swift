import AppStoreServerAPI
import AppStoreSignature
import Composition
import Foundation
import HTTPClient
import Logging
import Postgres
import Settings
import SigningTestSupport
import StoredAnswers
import TestSupport
import UseCases

/// The use cases over a fresh migrated database and a scripted `verifyReceipt`, called
/// directly: no HTTP edge, no CLI process.
struct UseCaseHarness {
    let database: PostgresClient
    let verify: ScriptedVerifyServer
    let evidence: AppleEvidence
    let apps: AppRegistry
    let pki: TestPKI
    let logger: Logger

    static let bundleID = RunningService.bundleID

    /// Runs `body` with the harness; everything it started is stopped afterwards.
    static func with(_ body: (UseCaseHarness) async throws -> Void) async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        let http = CurlHTTPClient(configuration: .init(), logger: Logger(label: "use-cases"))
        do {
            try await TestDatabase.withClient { database, _ in
                let apps = try ServiceConfiguration.load(
                    environment: ["APPSTORE_BUNDLE_ID": bundleID, "APPSTORE_SHARED_SECRET": RunningService.sharedSecret]).apps
                let receipts = ReceiptVerifier(
                    http: http, productionURL: verify.productionURL, sandboxURL: verify.sandboxURL, timeout: .seconds(5))
                try await body(
                    UseCaseHarness(
                        database: database, verify: verify, evidence: AppleEvidence(receipts: receipts, api: nil), apps: apps,
                        pki: try TestPKI(), logger: Logger(label: "use-cases")))
            }
        } catch {
            try? await http.shutdown()
            await verify.stop()
            throw error
        }
        try? await http.shutdown()
        await verify.stop()
    }

    /// The recorder of `/v1/receipts` and `/v1/transactions`, trusting `pki` (signed payloads and receipts), waiting `wait` for Apple.
    func purchases(wait: Duration = .seconds(5), onQueued: @escaping @Sendable () async -> Void = {}) -> PurchaseRecorder {
        PurchaseRecorder(
            evidence: evidence, database: database, answers: answers, signatures: signatures,
            receiptProof: AppReceiptVerifier(roots: AppleRootCertificates([pki.root.certificate])), apps: apps, wait: wait,
            onQueued: onQueued)
    }

    /// Verifies what `pki` signs.
    var signatures: SignedPayloadVerifier { SignedPayloadVerifier(roots: AppleRootCertificates([pki.root.certificate])) }

    /// The read answers under the apps' entitlement policies, each stored before it returns.
    var answers: ReadAnswers { ReadAnswers(database: database, policies: apps.entitlementPolicies, logger: logger) }

    /// The same harness with other apps (policies, secrets).
    func with(apps: AppRegistry) -> UseCaseHarness {
        UseCaseHarness(database: database, verify: verify, evidence: evidence, apps: apps, pki: pki, logger: logger)
    }

    /// A receipt `ScriptedVerifyServer.answerOneActivePeriodPerReceipt` answers for `originalTransactionID`.
    static func receipt(_ originalTransactionID: String) -> String {
        Data(originalTransactionID.utf8).base64EncodedString()
    }

    func count(_ query: PostgresQuery) async throws -> Int {
        try await database.query(query)[0].decode("n")
    }
}
