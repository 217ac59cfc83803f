import CatalogFiles
import Foundation
import HTTPClient
import Postgres
import Store
import Subscriptions
import TestSupport
import Testing

@Suite("Receipts, subscribers and intro-offer eligibility through the query API")
struct ReceiptsAndEligibilityTests {
    static let group = "20500000"

    /// The demo catalog (the one `make run` and appstore-sim use).
    static func importDemoCatalog(_ database: PostgresClient) async throws {
        let url = TestEnvironment.repositoryRoot().appendingPathComponent("Deploy/local/demo-catalog.json")
        let catalog = try CatalogParser.parse(json: Array(try Data(contentsOf: url))).get()
        try await ProductStore(client: database).replace(with: catalog.products, entitlements: catalog.entitlements)
    }

    private func post(_ service: RunningService, _ path: String, _ object: [String: Any]) async throws -> HTTPClient.HTTPResponse {
        try await service.post(path, object, timeout: .seconds(15))
    }

    private func eligibility(_ service: RunningService, user: String, _ products: [String]) async throws -> [String: String] {
        let response = try await post(service, "/v1/eligibility", ["app_user_id": user, "product_ids": products])
        #expect(response.status == 200)
        return try jsonObject(response)["eligibility"] as? [String: String] ?? [:]
    }

    @Test("a receipt links the user; notifications then change entitlement and eligibility as Apple's rules say")
    func receiptThenNotifications() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        // A week's free trial, then a paid month that is running now.
        var life = Lifecycle(originalTransactionID: "8000000000000100")
        life.purchase(from: daysAgo(12), days: 7, trial: true)
        life.purchase(from: daysAgo(5), days: 30)
        try verify.answerAlways(life.verifyAnswer)
        try await RunningService.with(verifyServer: verify) { service in
            try await Self.importDemoCatalog(service.database)
            let products = [
                "com.example.pro.monthly", "com.example.pro.yearly", "com.example.premium.monthly",
                "com.example.news.weekly", "com.example.unknown",
            ]
            // A new customer: eligible wherever an offer exists.
            #expect(
                try await eligibility(service, user: "alice", products) == [
                    "com.example.pro.monthly": "eligible", "com.example.pro.yearly": "eligible",
                    "com.example.premium.monthly": "no_intro_offer", "com.example.news.weekly": "eligible",
                    "com.example.unknown": "unknown_product",
                ])
            #expect(try await service.get("/v1/subscribers/alice").status == 404)

            // The app posts alice's receipt: she is subscribed, after a free trial.
            let linked = try await post(service, "/v1/receipts", ["app_user_id": "alice", "receipt_data": life.receiptToken])
            #expect(linked.status == 200)
            let subscriber = try jsonObject(linked)
            #expect(subscriber["app_user_id"] as? String == "alice")
            #expect(subscriber["entitled_groups"] as? [String] == [Self.group])
            let subscription = try #require((subscriber["subscriptions"] as? [[String: Any]])?.first)
            #expect(subscription["status"] as? String == "active")
            #expect(subscription["in_trial"] as? Bool == false)
            #expect((subscription["expires_at"] as? String) != nil)
            #expect(
                try await eligibility(service, user: "alice", products) == [
                    "com.example.pro.monthly": "ineligible", "com.example.pro.yearly": "ineligible",
                    "com.example.premium.monthly": "no_intro_offer", "com.example.news.weekly": "eligible",
                    "com.example.unknown": "unknown_product",
                ])

            // Apple support refunds the paid month: alice loses the entitlement; the used trial still counts.
            life.transactions[1]["cancellation_date_ms"] = NotificationBodies.ms(Date().addingTimeInterval(-60))
            life.transactions[1]["cancellation_reason"] = "0"
            life.renewal["auto_renew_status"] = "0"
            life.notify("CANCEL", at: Date().addingTimeInterval(-60))
            try verify.answerAlways(life.verifyAnswer)
            #expect(try await service.postNotification(NotificationBodies.bytes(life.notifications[0])).status == 200)
            try await service.waitUntilSettled()
            let after = try jsonObject(try await service.get("/v1/subscribers/alice"))
            #expect(after["entitled_groups"] as? [String] == [])
            #expect((after["subscriptions"] as? [[String: Any]])?.first?["status"] as? String == "revoked")
            #expect(
                try await eligibility(service, user: "alice", ["com.example.pro.yearly", "com.example.news.weekly"]) == [
                    "com.example.pro.yearly": "ineligible", "com.example.news.weekly": "eligible",
                ])

            // The CLI gives the same answers as the API.
            let cli = try await CLI.run(
                ["eligibility", "alice", "com.example.pro.yearly", "com.example.news.weekly", "--json"],
                databaseURL: service.databaseURL)
            #expect(cli.status == 0)
            let cliAnswers = try #require(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any])
            #expect(
                cliAnswers["eligibility"] as? [String: String] == [
                    "com.example.pro.yearly": "ineligible", "com.example.news.weekly": "eligible",
                ])
        }
    }

    @Test("upstream down: the receipt is queued (202) and the worker finishes it; rejected receipts are 422")
    func queuedAndRejected() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        var life = Lifecycle(originalTransactionID: "8000000000000200")
        life.purchase(from: daysAgo(3), days: 30)
        try verify.answerAlways(life.verifyAnswer)
        verify.inject([.http(503), .http(503)])
        try await RunningService.with(verifyServer: verify) { service in
            let queued = try await post(service, "/v1/receipts", ["app_user_id": "bob", "receipt_data": life.receiptToken])
            #expect(queued.status == 202)
            #expect(try jsonObject(queued)["status"] as? String == "pending")
            try await service.waitUntilSettled()
            #expect(try await service.stateCounts() == ["processed": 1])
            let bob = try jsonObject(try await service.get("/v1/subscribers/bob"))
            #expect(bob["entitled_groups"] as? [String] == [Self.group])

            verify.inject([.status(21010, retryable: nil)])
            let rejected = try await post(service, "/v1/receipts", ["app_user_id": "carol", "receipt_data": "Z2FyYmFnZQ=="])
            #expect(rejected.status == 422)
            #expect((try jsonObject(rejected)["message"] as? String)?.contains("21010") == true)
            #expect(try await service.get("/v1/subscribers/carol").status == 404)
        }
    }

    @Test(
        "malformed query requests are 400 with the error body",
        arguments: [
            #"{"receipt_data":"abc"}"#,
            #"{"app_user_id":"","receipt_data":"abc"}"#,
            #"{"app_user_id":"u","receipt_data":"abc","bundle_id":"com.other"}"#,
            #"[1]"#,
        ])
    func badReceiptRequests(_ body: String) async throws {
        try await RunningService.with(runsWorker: false) { service in
            let response = try await service.post("/v1/receipts", bytes: Array(body.utf8), timeout: .seconds(5))
            #expect(response.status == 400)
            #expect(try jsonObject(response)["error"] as? String == "malformed")
        }
    }

    @Test("eligibility requests: exactly one of app_user_id and receipt_data, 1 to 100 product ids")
    func badEligibilityRequests() async throws {
        try await RunningService.with(runsWorker: false) { service in
            let tooMany = (0...100).map { "p\($0)" }
            for body: [String: Any] in [
                ["product_ids": ["a"]],
                ["app_user_id": "u", "receipt_data": "x", "product_ids": ["a"]],
                ["app_user_id": "u", "product_ids": []],
                ["app_user_id": "u", "product_ids": tooMany],
                ["app_user_id": "u", "product_ids": "a"],
            ] {
                let response = try await post(service, "/v1/eligibility", body)
                #expect(response.status == 400)
            }
            let hundred = try await post(service, "/v1/eligibility", ["app_user_id": "u", "product_ids": Array(tooMany.prefix(100))])
            #expect(hundred.status == 200)
            #expect((try jsonObject(hundred)["eligibility"] as? [String: String])?.count == 100)
        }
    }
}
