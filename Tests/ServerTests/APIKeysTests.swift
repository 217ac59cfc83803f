import Access
import AppStore
import Composition
import Foundation
import HTTPClient
import HTTPTypes
import Postgres
import Settings
import Store
import Subscriptions
import Testing
import UseCases

@testable import Server

/// API keys on the real service: every route against every scope, apps seen and not seen,
/// the audit actor, malformed headers. Revocation across processes is in `APIKeysCLITests`.
@Suite("API keys: every route × every scope, app scoping, the audit actor")
struct APIKeysTests {
    static let otherApp = "com.example.other"

    /// A second app beside `RunningService.bundleID`.
    static func twoApps() throws -> [String: String] {
        let path = try TemporaryFile.write(
            #"{"apps":[{"bundle_id":"\#(otherApp)","shared_secret":"other-shared-secret-0123456789"}]}"#, name: "apps.json")
        return ["SUBSCRIPTIOND_CONFIG": path]
    }

    /// Makes a key in the service's database and waits until the service takes it.
    static func key(_ name: String, _ scopes: Set<Scope>, apps: [String] = [], on service: RunningService) async throws -> String {
        let created = try await APIKeys(
            repository: APIKeyStore(client: service.database), configuredApps: [RunningService.bundleID, otherApp]
        ).create(name: name, scopes: scopes, apps: apps, expiresAt: nil, by: .cli(user: "test"))
        let deadline = ContinuousClock.now + .seconds(10)
        while try await send(service, .get, "/v1/subscribers/nobody", token: created.text).status == 401 {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(100))
        }
        return created.text
    }

    static func send(
        _ service: RunningService, _ method: HTTPClient.HTTPMethod, _ path: String, _ body: String? = nil, token: String?,
        authorization: String? = nil
    ) async throws -> HTTPClient.HTTPResponse {
        var headers = [HTTPHeader(name: "Content-Type", value: "application/json")]
        if let value = authorization ?? token.map({ "Bearer \($0)" }) { headers.append(HTTPHeader(name: "Authorization", value: value)) }
        return try await service.execute(
            HTTPClient.HTTPRequest(
                method: method, url: service.baseURL + path, headers: headers, body: body.map { Array($0.utf8) } ?? [],
                timeout: .seconds(10)))
    }

    static func path(of route: APIRoute) -> String {
        "/v1/"
            + route.path.replacingOccurrences(of: ":app_user_id", with: "nobody")
            .replacingOccurrences(of: ":original_transaction_id", with: "1").replacingOccurrences(of: ":grant_id", with: "1")
            .replacingOccurrences(of: ":metric", with: "mrr").replacingOccurrences(of: ":transaction_id", with: "1")
    }

    static func method(of route: APIRoute) -> HTTPClient.HTTPMethod {
        HTTPClient.HTTPMethod(rawValue: route.method.rawValue) ?? .post
    }

    @Test("every route answers 403 to exactly the scopes that do not permit it, and never 401 to a live key")
    func everyRouteEveryScope() async throws {
        try await RunningService.with(runsWorker: false) { service in
            var tokens: [Scope: String] = [:]
            for scope in Scope.allCases { tokens[scope] = try await Self.key("scope-\(scope.rawValue)", [scope], on: service) }
            for route in APIRoute.allCases {
                for scope in Scope.allCases {
                    let method = Self.method(of: route)
                    let response = try await Self.send(
                        service, method, Self.path(of: route), method == .get || method == .delete ? nil : "{}", token: tokens[scope])
                    if scope.permits(route.scope) {
                        #expect(![401, 403].contains(response.status), "\(route) with \(scope): \(response.status)")
                    } else {
                        #expect(response.status == 403, "\(route) with \(scope): \(response.status)")
                        #expect(try jsonObject(response)["error"] as? String == "forbidden")
                    }
                }
            }
            // Signing is the offers scope's, whatever route asks for it.
            let signing = #"{"app_user_id":"nobody","product_ids":["com.example.pro.monthly"],"sign":true,"transaction_id":"1"}"#
            for scope in Scope.allCases {
                let response = try await Self.send(service, .post, "/v1/eligibility", signing, token: tokens[scope])
                #expect((response.status == 403) == !scope.permits(.offers), "signing with \(scope): \(response.status)")
            }
        }
    }

    @Test("a key limited to one app sees only its subscriptions and purchases: another app's subscription is 404, its bundle_id 403")
    func appScoping() async throws {
        try await RunningService.with(settings: try Self.twoApps(), runsWorker: false) { service in
            let apps = try ServiceConfiguration.load(environment: [
                "APPSTORE_BUNDLE_ID": RunningService.bundleID, "APPSTORE_SHARED_SECRET": RunningService.sharedSecret,
                "SUBSCRIPTIOND_CONFIG": try #require(try Self.twoApps()["SUBSCRIPTIOND_CONFIG"]),
            ]).apps
            let mine = "7100000000000001"
            let theirs = "7100000000000002"
            try await FactApplier(database: service.database, apps: apps).apply(
                [Self.period(mine, bundleID: RunningService.bundleID), Self.period(theirs, bundleID: Self.otherApp)],
                appUserID: "shared-user")
            let limited = try await Self.key("app-a", [.write], apps: [RunningService.bundleID], on: service)
            let limitedAdmin = try await Self.key("app-a-admin", [.admin], apps: [RunningService.bundleID], on: service)
            let everyApp = try await Self.key("every-app", [.read], on: service)

            #expect(try await Self.send(service, .get, "/v1/subscriptions/\(mine)", token: limited).status == 200)
            let hidden = try await Self.send(service, .get, "/v1/subscriptions/\(theirs)", token: limited)
            #expect(hidden.status == 404)
            #expect(try await Self.send(service, .get, "/v1/subscriptions/\(theirs)", token: everyApp).status == 200)

            func bundles(_ token: String) async throws -> [String] {
                let subscriber = try jsonObject(try await Self.send(service, .get, "/v1/subscribers/shared-user", token: token))
                return (subscriber["subscriptions"] as? [[String: Any]] ?? []).compactMap { $0["bundle_id"] as? String }.sorted()
            }
            #expect(try await bundles(limited) == [RunningService.bundleID])
            #expect(try await bundles(everyApp) == [RunningService.bundleID, Self.otherApp].sorted())
            #expect(try await Self.send(service, .get, "/v1/subscribers/shared-user/entitlements", token: limited).status == 200)

            let otherBundle = [
                (
                    "eligibility",
                    #"{"app_user_id":"shared-user","product_ids":["com.example.pro.monthly"],"bundle_id":"\#(Self.otherApp)"}"#
                ),
                ("receipts", #"{"app_user_id":"shared-user","receipt_data":"TUlJ","bundle_id":"\#(Self.otherApp)"}"#),
                ("transactions", #"{"app_user_id":"shared-user","transaction_id":"1","bundle_id":"\#(Self.otherApp)"}"#),
            ]
            for (route, body) in otherBundle {
                let response = try await Self.send(service, .post, "/v1/\(route)", body, token: limited)
                #expect(response.status == 403, "\(route): \(response.status) \(String(decoding: response.body, as: UTF8.self))")
            }
            let offer = try await Self.send(
                service, .post, "/v1/offers/sign",
                #"{"app_user_id":"shared-user","product_id":"com.example.pro.monthly","offer_id":"x","transaction_id":"1","bundle_id":"\#(Self.otherApp)"}"#,
                token: limitedAdmin)
            #expect(offer.status == 403, "offers/sign: \(offer.status)")
            let token = try await Self.send(
                service, .get, "/v1/subscribers/shared-user/app-account-token?bundle_id=\(Self.otherApp)", token: limited)
            #expect(token.status == 403)
            // Forgetting a user removes them from every app: an admin of one app may not.
            #expect(try await Self.send(service, .delete, "/v1/subscribers/shared-user", token: limitedAdmin).status == 403)
            #expect(try await service.database.query("SELECT 1 FROM subscribers WHERE app_user_id = 'shared-user'").count == 2)
        }
    }

    @Test("every audit row names the key that made the change")
    func auditActor() async throws {
        try await RunningService.with(runsWorker: false) { service in
            try await service.database.execute(
                "INSERT INTO entitlements (entitlement_id) VALUES ('pro') ON CONFLICT DO NOTHING")
            let support = try await Self.key("support-desk", [.admin], on: service)
            let backend = try await Self.key("app-backend", [.write], on: service)
            let grant = try await Self.send(
                service, .post, "/v1/subscribers/user-9/grants", #"{"entitlement":"pro","reason":"ticket 12"}"#, token: support)
            #expect(grant.status == 201)
            let consent = try await Self.send(
                service, .put, "/v1/subscribers/user-9/consent", #"{"consumption_data":true}"#, token: backend)
            #expect(consent.status == 200)
            let rows = try await service.database.query("SELECT action, actor FROM audit_log ORDER BY id")
            let actors = try rows.map { "\(try $0.decode("action", as: String.self)) \(try $0.decode("actor", as: String.self))" }
            #expect(actors.contains("grant_added key:support-desk"))
            #expect(actors.contains("consent_set key:app-backend"))
            #expect(actors.contains("key_created cli:test"))
        }
    }

    @Test("a missing, malformed or unknown Authorization header is 401 with WWW-Authenticate, never 500")
    func malformedHeaders() async throws {
        try await RunningService.with(runsWorker: false) { service in
            let headers: [String?] = [
                nil, "", "Bearer", "Bearer ", "Basic \(RunningService.adminToken)", "bearer",
                "Bearer sk_" + String(repeating: "A", count: 43),
                "Bearer \(RunningService.adminToken) trailing", "Bearer " + String(repeating: "x", count: 8_000), "Bearer \u{00e9}\u{00e9}",
            ]
            for header in headers {
                let response = try await Self.send(service, .get, "/v1/subscribers/nobody", token: nil, authorization: header)
                #expect(response.status == 401, "\(header?.prefix(20) ?? "none")")
                #expect(response.headers.first { $0.name.lowercased() == "www-authenticate" }?.value == "Bearer")
                #expect(try jsonObject(response)["error"] as? String == "unauthorized")
            }
            // ADMIN_TOKEN keeps working as admin-token, with the scheme in any case.
            let admin = try await Self.send(
                service, .get, "/v1/subscribers/nobody", token: nil, authorization: "bearer \(RunningService.adminToken)")
            #expect(admin.status == 404)
        }
    }

    static func period(_ original: String, bundleID: String) -> FactBatch {
        let start = Date().addingTimeInterval(-86_400)
        let fact = TransactionFact(
            transactionID: original, originalTransactionID: original, productID: "com.example.pro.monthly", bundleID: bundleID,
            environment: .production, subscriptionGroupID: "20500000", purchaseDate: start,
            expiresDate: start.addingTimeInterval(30 * 86_400),
            source: .v2, statedAt: Date(), productType: .autoRenewable)
        return FactBatch(
            facts: ReceiptFacts(environment: .production, bundleID: bundleID, transactions: [fact], renewals: [], latestReceipt: nil),
            observedAt: Date())
    }
}
