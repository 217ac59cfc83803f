import Foundation
import HTTPClient
import Logging
import Postgres
import TestSupport
import Testing

/// One authenticated notification with an out-of-range date once crash-looped the whole
/// service. Odd values, interleaved with a normal population, against the real binary:
/// it never dies, every odd one ends refused (4xx) or dead, every normal customer is right.
@Suite("Poison: authenticated odd values never stop subscriptiond", .serialized)
struct PoisonInputTests {
    enum Expected: Sendable { case refused, dead, settles }

    struct Odd: Sendable {
        let name: String
        let body: [UInt8]
        let expected: Expected
    }

    static let dateFields = ["purchase_date_ms", "original_purchase_date_ms", "expires_date_ms", "cancellation_date_ms"]
    static let oddDates = ["100000000000000000000", "-1", "NaN", "1e400", "", "1.5", "0x10"]

    static func oddNotifications() -> [Odd] {
        var odd: [Odd] = []
        var serial = 0
        func id() -> String {
            serial += 1
            return String(7_000_000_000_000_000 + serial)
        }
        func body(_ transaction: [String: Any] = [:], extra: [String: Any] = [:], receipt: String? = "cmVjZWlwdA==", id: String) -> [UInt8]
        {
            var extra = extra
            extra["transaction"] = transaction
            return NotificationBodies.bytes(
                NotificationBodies.v1(type: "DID_RENEW", originalTransactionID: id, transactionID: id, receipt: receipt, extra: extra))
        }
        for field in dateFields {
            for value in oddDates {
                // An empty date is absent, not malformed: the body is taken and Apple's answer decides.
                odd.append(
                    Odd(name: "\(field)=\(value)", body: body([field: value], id: id()), expected: value.isEmpty ? .settles : .refused))
            }
        }
        // The reproduction from the incident: no receipt, a date beyond any Int64 of microseconds.
        odd.append(
            Odd(name: "incident", body: body(["expires_date_ms": "100000000000000000000"], receipt: nil, id: id()), expected: .refused))
        odd.append(
            Odd(
                name: "auto_renew_status_change_date_ms=1e400", body: body(extra: ["auto_renew_status_change_date_ms": "1e400"], id: id()),
                expected: .refused))
        odd.append(Odd(name: "10k-character id", body: body(id: String(repeating: "7", count: 10_000)), expected: .refused))
        odd.append(Odd(name: "NUL in id", body: body(id: "70000\u{0}1"), expected: .refused))
        odd.append(Odd(name: "NUL in bvrs", body: body(extra: ["bvrs": "1\u{0}"], id: id()), expected: .refused))
        odd.append(Odd(name: "expiration_intent 99", body: body(extra: ["expiration_intent": "99"], id: id()), expected: .settles))
        let many = (0..<10_000).map { index -> [String: Any] in
            [
                "transaction_id": String(7_100_000_000_000_000 + index), "original_transaction_id": "7100000000000000", "product_id": "p",
                "purchase_date_ms": "1500000000000", "expires_date_ms": "1500000100000",
            ]
        }
        odd.append(
            Odd(name: "10,000 latest_receipt_info entries", body: body(extra: ["latest_receipt_info": many], id: id()), expected: .settles))
        // Authenticated bodies whose receipts Apple answers oddly: the worker declares them dead.
        for poison in ["poison-date", "poison-bundle", "poison-grace"] {
            let receipt = Data(poison.utf8).base64EncodedString()
            odd.append(Odd(name: poison, body: body(receipt: receipt, id: id()), expected: .dead))
        }
        return odd
    }

    /// Apple's answers: one active period for a normal receipt, odd answers for poison ones.
    static func answer(receipt: String) -> [String: Any] {
        let id = receipt.hasPrefix("poison") ? "7999999999999999" : receipt
        var transaction: [String: Any] = [
            "transaction_id": id, "original_transaction_id": id, "product_id": "com.example.pro.monthly",
            "purchase_date_ms": NotificationBodies.ms(daysAgo(1)), "expires_date_ms": NotificationBodies.ms(daysAgo(-29)),
        ]
        var renewal: [String: Any] = ["original_transaction_id": id, "auto_renew_status": "1"]
        var answer: [String: Any] = ["status": 0, "environment": "Production", "receipt": ["bundle_id": RunningService.bundleID]]
        switch receipt {
        case "poison-date": transaction["expires_date_ms"] = "100000000000000000000"
        case "poison-bundle": answer["receipt"] = ["bundle_id": "com.someone.else"]
        case "poison-grace": renewal["grace_period_expires_date_ms"] = "-99999999999999999999"
        default: break
        }
        answer["latest_receipt_info"] = [transaction]
        answer["pending_renewal_info"] = [renewal]
        return answer
    }

    @Test("≥ 30 odd notifications among 40 normal customers: the daemon lives, odd ones end 4xx or dead, normal ones are right")
    func oddValuesAmongNormalCustomers() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        verify.respond { _, request in
            let receipt =
                (request["receipt-data"] as? String).flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
            return Self.answer(receipt: receipt)
        }
        try await TestDatabase.withClient { database, testDatabase in
            let process = ServiceProcess(
                databaseURL: testDatabase.url, verify: verify,
                [
                    "VERIFY_TIMEOUT_MS": "2000", "WORKER_CONCURRENCY": "8", "MAX_BODY_BYTES": "16777216",
                ])
            defer { process.terminate() }
            var logger = Logger(label: "test.poison")
            logger.logLevel = .critical
            let http = CurlHTTPClient(configuration: .init(maxConcurrentTransfers: 8), logger: logger)
            defer { Task { try? await http.shutdown() } }
            let port = try await process.start()

            let odd = Self.oddNotifications()
            #expect(odd.count >= 30)
            let normal = (0..<40).map { String(7_500_000_000_000_000 + $0) }
            var deliveries: [(index: Int, isOdd: Bool)] = odd.indices.map { ($0, true) } + normal.indices.map { ($0, false) }
            var generator = SeededGenerator(seed: 9)
            deliveries.shuffle(using: &generator)

            var oddStatus: [Int: Int] = [:]
            var oddIDs: [Int: Int] = [:]
            for delivery in deliveries {
                let body =
                    delivery.isOdd ? odd[delivery.index].body : NotificationBodies.renewal(originalTransactionID: normal[delivery.index])
                let response = try await http.execute(
                    .postJSON(url: "http://127.0.0.1:\(port)/notifications/appstore", body: body, timeout: .seconds(30)))
                if delivery.isOdd {
                    oddStatus[delivery.index] = response.status
                    if response.status == 200 { oddIDs[delivery.index] = (try? jsonObject(response))?["id"] as? Int }
                } else {
                    #expect(response.status == 200)
                }
                #expect(process.isRunning, "subscriptiond died after \(delivery.isOdd ? odd[delivery.index].name : "a normal customer")")
            }

            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                let open: Int = try await database.query("SELECT count(*) AS n FROM notifications WHERE state IN ('pending', 'retrying')")[
                    0
                ].decode("n")
                if open == 0 { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(process.isRunning)
            for (index, item) in odd.enumerated() {
                let status = oddStatus[index] ?? 0
                switch item.expected {
                case .refused:
                    #expect((400..<500).contains(status), "\(item.name) answered \(status)")
                case .dead, .settles:
                    #expect(status == 200, "\(item.name) answered \(status)")
                    let id = try #require(oddIDs[index], "\(item.name) has no id")
                    let state: String = try await database.query("SELECT state FROM notifications WHERE id = \(id)")[0].decode("state")
                    #expect(
                        item.expected == .dead ? state == "dead" : ["processed", "dead"].contains(state), "\(item.name) ended \(state)")
                }
            }
            let active: Int = try await database.query(
                """
                SELECT count(*) AS n FROM subscriptions WHERE status = 'active' AND original_transaction_id = ANY(\(normal)::text[])
                """)[0].decode("n")
            #expect(active == normal.count)

            // A clean restart: nothing left to choke on.
            process.terminate()
            let again = try await process.start()
            let ready = try await http.execute(.get(url: "http://127.0.0.1:\(again)/health/ready", timeout: .seconds(10)))
            #expect(ready.status == 200)
            try await Task.sleep(for: .seconds(1))
            #expect(process.isRunning)
        }
    }

    @Test("a poison row stored by an earlier version (the incident's body) ends dead; the daemon stays up")
    func storedPoisonRowEndsDead() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        verify.answerOneActivePeriodPerReceipt()
        try await TestDatabase.withClient { database, testDatabase in
            // What the version before this one accepted and stored: no receipt, and an
            // expires_date_ms whose microseconds do not fit in Int64.
            var body = NotificationBodies.v1(
                type: "DID_RENEW", originalTransactionID: "7900000000000001", transactionID: "7900000000000001",
                receipt: nil, extra: ["transaction": ["expires_date_ms": "100000000000000000000"]])
            body.removeValue(forKey: "password")
            let text = String(decoding: NotificationBodies.bytes(body), as: UTF8.self)
            try await database.execute(
                """
                INSERT INTO notifications (source, dedupe_key, notification_type, environment, bundle_id, original_transaction_id, body)
                VALUES ('v1', 'v1:incident', 'DID_RENEW', 'Production', \(RunningService.bundleID), '7900000000000001', \(text)::jsonb)
                """)
            let process = ServiceProcess(databaseURL: testDatabase.url, verify: verify)
            defer { process.terminate() }
            _ = try await process.start()
            let deadline = ContinuousClock.now + .seconds(30)
            var state = "pending"
            while ContinuousClock.now < deadline && state != "dead" {
                try await Task.sleep(for: .milliseconds(200))
                state = try await database.query("SELECT state FROM notifications")[0].decode("state")
            }
            #expect(state == "dead")
            let error: String = try await database.query("SELECT last_error FROM notifications")[0].decode("last_error")
            #expect(error.contains("expires_date_ms"), "\(error)")
            try await Task.sleep(for: .seconds(1))
            #expect(process.isRunning)
        }
    }
}
