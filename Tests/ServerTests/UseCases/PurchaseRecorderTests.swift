import Access
import AppStoreSignature
import Foundation
import Logging
import Postgres
import SigningTestSupport
import Store
import Subscriptions
import Synchronization
import Testing
import UseCases

/// ``PurchaseRecorder`` called directly: what `/v1/receipts` and `/v1/transactions` do,
/// without their HTTP edge.
@Suite("Use case: recording a purchase (verify or look up, apply, else queue)", .serialized)
struct PurchaseRecorderTests {
    @Test("a verified receipt is applied and the user linked; the answer is the user's subscriptions")
    func verifiedReceipt() async throws {
        try await UseCaseHarness.with { harness in
            harness.verify.answerOneActivePeriodPerReceipt()
            let submission = try ReceiptSubmission(
                receiptData: UseCaseHarness.receipt("4100000000000001"), bundleID: nil, apps: harness.apps)
            let recorded = try await harness.purchases().record(
                receipt: submission, appUserID: "user-1", visibleTo: .all, logger: harness.logger)
            guard case .applied(let body) = recorded else {
                Issue.record("expected applied, got \(recorded)")
                return
            }
            let subscriptions = try SubscriberJSON(body).subscriptions
            #expect(subscriptions.map { $0["original_transaction_id"] as? String } == ["4100000000000001"])
            #expect(subscriptions.first?["status"] as? String == "active")
            #expect(try await harness.count("SELECT count(*) AS n FROM notifications") == 0)
        }
    }

    @Test("Apple slower than the wait: queued once under its dedupe key, the worker woken; a refusal is receiptRejected")
    func queuedAndRejected() async throws {
        try await UseCaseHarness.with { harness in
            let wakeUps = Mutex(0)
            let purchases = harness.purchases(wait: .milliseconds(200), onQueued: { wakeUps.withLock { $0 += 1 } })
            let submission = try ReceiptSubmission(
                receiptData: UseCaseHarness.receipt("4100000000000002"), bundleID: nil, apps: harness.apps)
            for _ in 0..<2 {
                harness.verify.inject([.hang(.seconds(2))])
                let recorded = try await purchases.record(receipt: submission, appUserID: "user-2", visibleTo: .all, logger: harness.logger)
                guard case .queued = recorded else {
                    Issue.record("expected queued, got \(recorded)")
                    return
                }
            }
            #expect(wakeUps.withLock { $0 } == 2)
            let row = try #require(
                try await harness.database.query(
                    "SELECT source, dedupe_key, app_user_id FROM notifications"
                ).first)
            #expect(try await harness.count("SELECT count(*) AS n FROM notifications") == 1, "the second submission is the same entry")
            #expect(try row.decode("source", as: String.self) == "receipt")
            #expect(try row.decode("dedupe_key", as: String.self).hasPrefix(DedupeKey.queuedReceipt(bodyDigest: "")))
            #expect(try row.decode("app_user_id", as: String.self) == "user-2")

            // With time to answer (a loaded machine can take longer than 200 ms), Apple's refusal.
            harness.verify.inject([.status(21010, retryable: nil)])
            await #expect(throws: UseCaseError.self) {
                _ = try await harness.purchases().record(receipt: submission, appUserID: "user-2", visibleTo: .all, logger: harness.logger)
            }
        }
    }

    @Test("a StoreKit 2 signed transaction is verified and applied; forged or for another app is signatureRejected; not a JWS is malformed")
    func signedTransactions() async throws {
        try await UseCaseHarness.with { harness in
            let purchases = harness.purchases()
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            func transaction(bundleID: String) -> String {
                let object: [String: Any] = [
                    "transactionId": "4200000000000001", "originalTransactionId": "4200000000000001", "bundleId": bundleID,
                    "productId": "com.example.pro.monthly", "environment": "Sandbox", "purchaseDate": now - 60_000,
                    "expiresDate": now + 2_592_000_000, "signedDate": now, "type": "Auto-Renewable Subscription",
                ]
                return String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
            }
            let signed = try TestJWS.sign(payload: transaction(bundleID: UseCaseHarness.bundleID), by: harness.pki)
            let recorded = try await purchases.record(
                signedTransaction: signed, appUserID: "user-3", visibleTo: .all, logger: harness.logger)
            guard case .applied(let body) = recorded else {
                Issue.record("expected applied, got \(recorded)")
                return
            }
            #expect(try SubscriberJSON(body).subscriptions.map { $0["original_transaction_id"] as? String } == ["4200000000000001"])

            let otherApp = try TestJWS.sign(payload: transaction(bundleID: "com.other.app"), by: harness.pki)
            let forged = try TestJWS.sign(payload: transaction(bundleID: UseCaseHarness.bundleID), by: try TestPKI())
            for jws in [otherApp, forged] {
                do {
                    _ = try await purchases.record(signedTransaction: jws, appUserID: "user-3", visibleTo: .all, logger: harness.logger)
                    Issue.record("accepted")
                } catch let error as UseCaseError {
                    guard case .signatureRejected = error else {
                        Issue.record("expected signatureRejected, got \(error)")
                        continue
                    }
                }
            }
            do {
                _ = try await purchases.record(signedTransaction: "not a jws", appUserID: "user-3", visibleTo: .all, logger: harness.logger)
                Issue.record("accepted")
            } catch let error as UseCaseError {
                guard case .malformed = error else {
                    Issue.record("expected malformed, got \(error)")
                    return
                }
            }
        }
    }
}
