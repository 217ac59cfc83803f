import Access
import Foundation
import HTTPClient
import Postgres
import Store
import TestSupport
import Testing
import UseCases

/// The console's doors: sign-in and its session cookie, CSRF on every form, who may do what,
/// and the headers every answer carries; against the real application and PostgreSQL.
@Suite("Console: sessions, CSRF, roles and headers")
struct ConsoleAccessTests {
    static let password = "correct horse battery staple"

    /// Runs `body` against a service with the catalog entitlement `pro` and three console
    /// users: `vera` (viewer), `sam` (support), `ada` (admin).
    static func withConsole(settings: [String: String] = [:], _ body: (RunningService) async throws -> Void) async throws {
        try await RunningService.with(settings: settings, runsWorker: false) { service in
            try await service.database.execute(
                "INSERT INTO products (product_id, bundle_id, type, subscription_group_id, period) VALUES ('com.example.pro.monthly', 'com.example.app', 'auto_renewable', '20500000', 'P1M')"
            )
            try await service.database.execute("INSERT INTO entitlements (entitlement_id) VALUES ('pro')")
            try await service.database.execute(
                "INSERT INTO entitlement_products (entitlement_id, product_id) VALUES ('pro', 'com.example.pro.monthly')")
            let users = ConsoleUsers(repository: ConsoleUserStore(client: service.database), cost: 4)
            for (name, role) in [("vera", ConsoleRole.viewer), ("sam", .support), ("ada", .admin)] {
                try await users.add(name: name, role: role, password: password, by: .cli(user: "test"))
            }
            try await body(service)
        }
    }

    @Test("sign-in sets a new HttpOnly, SameSite=Strict session cookie, whatever id the browser brought; sign-out ends it")
    func sessionCookie() async throws {
        try await Self.withConsole { service in
            let browser = ConsoleClient(service)
            #expect(try await browser.get("/console").location == "/console/sign-in")
            browser.plant("subscriptiond_console", "planted-by-an-attacker-0123456789abcdef")
            #expect(try await browser.get("/console").location == "/console/sign-in")
            let signedIn = try await browser.signIn("sam", Self.password)
            #expect(signedIn.status == 303)
            #expect(signedIn.location == "/console")
            let cookie = try #require(browser.lastSetCookies.first { $0.hasPrefix("subscriptiond_console=") })
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Strict"))
            #expect(cookie.contains("Path=/console"))
            // Plain HTTP on loopback: no Secure, or the browser would never send it back.
            #expect(!cookie.contains("Secure"))
            let session = try #require(browser.cookies["subscriptiond_console"])
            #expect(session != "planted-by-an-attacker-0123456789abcdef")
            // Only a digest of the id is stored.
            let stored = try await service.database.query("SELECT count(*) AS n FROM console_sessions WHERE user_name = 'sam'")
            #expect(try stored[0].decode("n", as: Int64.self) == 1)
            let overview = try await browser.get("/console")
            #expect(overview.status == 200)
            #expect(overview.html.contains("<h1>Overview</h1>"))
            #expect(overview.html.contains("sam (support)"))

            let signedOut = try await browser.post("/console/sign-out")
            #expect(signedOut.location == "/console/sign-in")
            #expect(browser.cookies["subscriptiond_console"] == nil)
            // The old id is dead even if a copy of it is replayed.
            browser.plant("subscriptiond_console", session)
            #expect(try await browser.get("/console").location == "/console/sign-in")
        }
    }

    @Test("behind a proxy that says HTTPS, the cookie is Secure")
    func secureBehindProxy() async throws {
        try await Self.withConsole { service in
            let browser = ConsoleClient(service)
            browser.extraHeaders = [HTTPHeader(name: "X-Forwarded-Proto", value: "https")]
            try await browser.signIn("sam", Self.password)
            #expect(browser.lastSetCookies.contains { $0.hasPrefix("subscriptiond_console=") && $0.contains("Secure") })
        }
    }

    @Test("a wrong password or unknown name answers 401 alike; the tenth failure in a minute makes the address wait")
    func refusedAndThrottled() async throws {
        try await Self.withConsole { service in
            let browser = ConsoleClient(service)
            let wrong = try await browser.signIn("sam", "not the password at all")
            #expect(wrong.status == 401)
            #expect(wrong.html.contains("Wrong name or password."))
            let unknown = try await browser.signIn("nobody", Self.password)
            #expect(unknown.status == 401)
            #expect(unknown.html.contains("Wrong name or password."))
            for _ in 0..<8 { try await browser.signIn("sam", "still not the password") }
            let held = try await browser.signIn("sam", Self.password)
            #expect(held.status == 429)
            #expect(held.headers.first(named: "Retry-After").flatMap(Int.init).map { $0 > 0 && $0 <= 60 } == true)
            #expect(browser.cookies["subscriptiond_console"] == nil)
        }
    }

    @Test("a form without the session's CSRF token is 403 and changes nothing; so is a sign-in without its cookie")
    func csrf() async throws {
        try await Self.withConsole { service in
            let browser = ConsoleClient(service)
            try await browser.signIn("sam", Self.password)
            try await browser.get("/console")
            let grant = [("entitlement", "pro"), ("reason", "goodwill")]
            #expect(try await browser.post("/console/customers/user-1/grants", grant, csrf: .some(nil)).status == 403)
            #expect(try await browser.post("/console/customers/user-1/grants", grant, csrf: "stale-token-0123456789").status == 403)
            let grants = try await service.database.query("SELECT count(*) AS n FROM entitlement_grants")
            #expect(try grants[0].decode("n", as: Int64.self) == 0)
            // With the page's token it goes through.
            #expect(try await browser.post("/console/customers/user-1/grants", grant).status == 303)

            let stranger = ConsoleClient(service)
            let forged = try await stranger.post(
                "/console/sign-in", [("name", "sam"), ("password", Self.password)], csrf: "made-up-token-0123456789abcdef")
            #expect(forged.status == 403)
            #expect(stranger.cookies["subscriptiond_console"] == nil)
        }
    }

    @Test("viewer reads only; support grants but cannot delete, replay or see keys; admin deletes")
    func rolesByAction() async throws {
        try await Self.withConsole { service in
            _ = try await service.post("/v1/subscribers/user-2/grants", ["entitlement": "pro", "expires_at": NSNull(), "reason": "seed"])
            let viewer = ConsoleClient(service)
            try await viewer.signIn("vera", Self.password)
            let page = try await viewer.get("/console/customers/user-2")
            #expect(page.status == 200)
            #expect(!page.html.contains("grant-form"))
            #expect(!page.html.contains(">Keys<"))
            #expect(try await viewer.post("/console/customers/user-2/grants", [("entitlement", "pro"), ("reason", "x")]).status == 403)
            #expect(try await viewer.post("/console/customers/user-2/recheck").status == 403)
            #expect(try await viewer.get("/console/keys").status == 403)

            let support = ConsoleClient(service)
            try await support.signIn("sam", Self.password)
            #expect(try await support.get("/console/customers/user-2").html.contains("grant-form"))
            #expect(try await support.post("/console/customers/user-2/grants", [("entitlement", "pro"), ("reason", "x")]).status == 303)
            #expect(try await support.get("/console/customers/user-2/delete").status == 403)
            #expect(try await support.post("/console/customers/user-2/delete").status == 403)
            #expect(try await support.post("/console/notifications/1/replay").status == 403)
            #expect(try await support.get("/console/keys").status == 403)
            let kept = try await service.get("/v1/subscribers/user-2")
            #expect(kept.status == 200)

            let admin = ConsoleClient(service)
            try await admin.signIn("ada", Self.password)
            #expect(try await admin.get("/console").html.contains(">Keys<"))
            let confirm = try await admin.get("/console/customers/user-2/delete")
            #expect(confirm.status == 200)
            #expect(confirm.html.contains("Delete customer"))
            let deleted = try await admin.post("/console/customers/user-2/delete")
            #expect(deleted.location == "/console/customers?notice=deleted")
            // Gone everywhere: the console, the API.
            #expect(try await admin.get("/console/customers/user-2").status == 404)
            #expect(try await support.get("/console/customers/user-2").status == 404)
            #expect(try await service.get("/v1/subscribers/user-2").status == 404)
        }
    }

    @Test("a console grant writes the same audit row and events as the API's, naming the console user")
    func sameAuditAsAPI() async throws {
        try await Self.withConsole { service in
            _ = try await service.post("/v1/subscribers/by-api/grants", ["entitlement": "pro", "expires_at": NSNull(), "reason": "comp"])
            let support = ConsoleClient(service)
            try await support.signIn("sam", Self.password)
            try await support.get("/console/customers?q=by-api")
            let posted = try await support.post("/console/customers/by-console/grants", [("entitlement", "pro"), ("reason", "comp")])
            #expect(posted.location == "/console/customers/by-console?notice=granted")
            let rows = try await service.database.query(
                "SELECT app_user_id, action, actor, detail::text AS detail FROM audit_log WHERE action = 'grant_added' ORDER BY id")
            try #require(rows.count == 2)
            let actors = try rows.map { try $0.decode("actor", as: String.self) }
            #expect(actors == ["key:admin-token", "console:sam"])
            let keys = try rows.map { row -> Set<String> in
                let text = try row.decode("detail", as: String.self)
                let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
                return Set(object.keys)
            }
            #expect(keys[0] == keys[1])
            // Both users now hold the entitlement the same way.
            let api = try jsonObject(try await service.get("/v1/subscribers/by-api/entitlements"))
            let console = try jsonObject(try await service.get("/v1/subscribers/by-console/entitlements"))
            #expect((api["entitlements"] as? [String: Any])?.keys.sorted() == (console["entitlements"] as? [String: Any])?.keys.sorted())
            let page = try await support.get(try #require(posted.location))
            #expect(page.html.contains("<p role=\"status\" class=\"notice\">Entitlement granted.</p>"))
            #expect(page.rows(of: "entitlements").first?.contains("grant") == true)
        }
    }

    @Test("a session ends when idle too long, and at once when its user is removed")
    func idleAndRemoved() async throws {
        try await Self.withConsole(settings: ["CONSOLE_SESSION_IDLE_MINUTES": "1"]) { service in
            let support = ConsoleClient(service)
            try await support.signIn("sam", Self.password)
            #expect(try await support.get("/console/products").status == 200)
            try await service.database.execute("UPDATE console_sessions SET last_seen_at = now() - interval '61 seconds'")
            #expect(try await support.get("/console/products").location == "/console/sign-in")

            let admin = ConsoleClient(service)
            try await admin.signIn("ada", Self.password)
            #expect(try await admin.get("/console/products").status == 200)
            try await ConsoleUsers(repository: ConsoleUserStore(client: service.database)).remove(name: "ada", by: .cli(user: "test"))
            #expect(try await admin.get("/console/products").location == "/console/sign-in")
            let again = try await ConsoleClient(service).signIn("ada", Self.password)
            #expect(again.status == 401)
        }
    }

    @Test("every answer carries the Content-Security-Policy and its companions; CONSOLE=off serves no console")
    func headersAndOff() async throws {
        try await Self.withConsole { service in
            let browser = ConsoleClient(service)
            for page in [try await browser.get("/console"), try await browser.get("/console/sign-in")] {
                #expect(page.headers.first(named: "Content-Security-Policy")?.contains("default-src 'none'") == true)
                #expect(page.headers.first(named: "X-Frame-Options") == "DENY")
                #expect(page.headers.first(named: "X-Content-Type-Options") == "nosniff")
                #expect(page.headers.first(named: "Cache-Control") == "no-store")
            }
        }
        try await RunningService.with(settings: ["CONSOLE": "off"], runsWorker: false) { service in
            let page = try await ConsoleClient(service).get("/console/sign-in")
            #expect(page.status == 404)
        }
    }
}
