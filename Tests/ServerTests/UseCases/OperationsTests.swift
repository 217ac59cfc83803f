import Access
import AppStoreServerAPI
import AppStoreSignature
import AppStoreSimulator
import Composition
import Foundation
import HTTPClient
import Logging
import Postgres
import Settings
import Store
import Subscriptions
import Testing
import UseCases

/// `revalidate` and `sync` as use cases, called directly: the logic the CLI runs, without
/// spawning it.
@Suite("Use cases: revalidate and sync", .serialized)
struct OperationsTests {
    @Test("revalidate applies Apple's current answer and records it; a refusal is recorded as rejected; no receipt is skipped")
    func revalidate() async throws {
        try await UseCaseHarness.with { harness in
            harness.verify.answerOneActivePeriodPerReceipt()
            let id = "4300000000000001"
            let submission = try ReceiptSubmission(receiptData: UseCaseHarness.receipt(id), bundleID: nil, apps: harness.apps)
            _ = try await harness.purchases().record(receipt: submission, appUserID: "user-4", visibleTo: .all, logger: harness.logger)

            // Apple now says the purchase was refunded an hour ago.
            harness.verify.respond { _, _ in
                let ms = { (date: Date) in String(Int64(date.timeIntervalSince1970 * 1000)) }
                return [
                    "status": 0, "environment": "Production",
                    "latest_receipt_info": [
                        [
                            "transaction_id": id, "original_transaction_id": id, "product_id": "com.example.pro.monthly",
                            "purchase_date_ms": ms(Date().addingTimeInterval(-86_400)),
                            "expires_date_ms": ms(Date().addingTimeInterval(29 * 86_400)),
                            "cancellation_date_ms": ms(Date().addingTimeInterval(-3_600)), "cancellation_reason": "0",
                        ]
                    ],
                ]
            }
            let revalidator = Revalidator(
                database: harness.database, evidence: harness.evidence, apps: harness.apps, concurrency: 2, logger: harness.logger)
            let store = RevalidationStore(client: harness.database)
            let (items, unknown) = try await store.items(originalTransactionIDs: [id])
            #expect(unknown.isEmpty)
            let item = try #require(items.first)
            let outcome = try await revalidator.revalidate(item)
            guard case .verified(let change?) = outcome else {
                Issue.record("expected a verified status change, got \(String(describing: outcome))")
                return
            }
            #expect(change.oldStatus == .active && change.newStatus == .revoked)

            harness.verify.inject([.status(21010, retryable: nil)])
            let (completed, summary) = try await revalidator.run(.items(items), shouldStop: { false }, onOutcome: { _, _ in })
            #expect(completed)
            #expect(summary.rejected == 1 && summary.total == 1)
            let recorded: String = try await harness.database.query(
                "SELECT revalidation_outcome AS outcome FROM subscriptions WHERE original_transaction_id = \(id)")[0].decode("outcome")
            #expect(recorded.hasPrefix("rejected"))

            // A subscription known only from a signed notification has no receipt to verify.
            try await harness.database.execute(
                """
                INSERT INTO subscriptions (environment, original_transaction_id, bundle_id, product_id, status, latest_transaction_id)
                VALUES ('Production', '4300000000000002', \(UseCaseHarness.bundleID), 'com.example.pro.monthly', 'active', '4300000000000002')
                """)
            let receiptless = try #require(try await store.items(originalTransactionIDs: ["4300000000000002"]).found.first)
            #expect(try await revalidator.revalidate(receiptless) == .skipped("no stored receipt"))
        }
    }

    @Test("sync re-reads stale subscriptions from the App Store Server API and heals every one")
    func sync() async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(customers: 60, seed: 20_261_124, sandboxShare: 0)
        defer { Task { await world.close() } }
        try await RunningService.with(settings: world.settings, runsWorker: false) { service in
            let truth = world.simulator.truth().customers.flatMap(\.subscriptions)
            try await service.database.execute(
                """
                INSERT INTO subscriptions (environment, original_transaction_id, bundle_id, product_id, status, latest_transaction_id)
                SELECT 'Production', id, \(RunningService.bundleID), product, 'expired', id
                FROM unnest(\(truth.map(\.originalTransactionID))::text[], \(truth.map(\.productID))::text[]) AS t(id, product)
                """)
            let configuration = try ServiceConfiguration.load(environment: service.environment)
            let logger = Logger(label: "sync-test")
            let http = CurlHTTPClient(configuration: .init(maxConcurrentTransfers: 8), logger: logger)
            defer { Task { try? await http.shutdown() } }
            let verifier = SignedPayloadVerifier(roots: try TrustAnchors.signedPayloads.load(configuration.appleRootCertificates))
            let directory = try AppStoreAPIDirectory(configuration: configuration, http: http, verifier: verifier, logger: logger)
            let receipts = ReceiptVerifier(
                http: http, productionURL: configuration.verifyReceiptURL, sandboxURL: configuration.verifyReceiptSandboxURL,
                timeout: .seconds(5))
            let sync = SubscriptionSync(
                database: service.database, evidence: AppleEvidence(receipts: receipts, api: directory), apps: configuration.apps,
                concurrency: 8, logger: logger)

            let targets = try await sync.targets(nil)
            #expect(Set(targets.map(\.originalTransactionID)) == Set(truth.map(\.originalTransactionID)))
            let failures = try await sync.run(targets)
            #expect(failures.isEmpty, "\(failures.prefix(3))")
            let check = SubscriptiondCheck(
                baseURL: try #require(URL(string: service.baseURL)), adminToken: RunningService.adminToken, simulator: world.simulator)
            let mismatches = try await check.statusMismatches()
            #expect(mismatches.isEmpty, "\(mismatches.count) mismatches after sync: \(mismatches.prefix(5))")

            let unknown = try await sync.targets(["999"])
            #expect(unknown.isEmpty)
        }
    }
}
