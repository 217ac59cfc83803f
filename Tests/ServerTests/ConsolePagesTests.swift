import Foundation
import HTTPClient
import Postgres
import TestSupport
import Testing

/// The console's pages against hostile and large data: every stored or typed value escaped,
/// unknown things answered with a 404 page, a long timeline read a page at a time.
@Suite("Console: pages, escaping and paging")
struct ConsolePagesTests {
    private static let password = ConsoleAccessTests.password

    @Test("a search of any text is escaped and answered; an unknown customer is a 404 page")
    func hostileSearch() async throws {
        try await ConsoleAccessTests.withConsole { service in
            let browser = ConsoleClient(service)
            try await browser.signIn("vera", Self.password)
            for text in ["<script>alert(1)</script>\"'", String(repeating: "x", count: 10_240), "a%00b", "😀 ' OR 1=1 --", ""] {
                let page = try await browser.get("/console/customers?q=" + Self.query(text))
                #expect(page.status == 200, "search \(text.prefix(20))")
                #expect(!page.html.contains("<script>alert"))
            }
            let escaped = try await browser.get("/console/customers?q=" + Self.query("<script>alert(1)</script>"))
            #expect(escaped.html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(escaped.html.contains("No customer matches"))
            let unknown = try await browser.get("/console/customers/nobody-here")
            #expect(unknown.status == 404)
            #expect(unknown.html.contains("<h1>Not found</h1>"))
            let nowhere = try await browser.get("/console/no/such/page")
            #expect(nowhere.status == 404 && nowhere.html.contains("The console has no such page."))
            #expect(try await browser.get("/console/notifications/999999").status == 404)
            #expect(try await browser.get("/console/webhooks/999999").status == 404)
            #expect(try await browser.get("/console/purchases/Production/999999").status == 404)
        }
    }

    @Test("values an app controls (user ids, reasons) are escaped on the customer page, ids percent-encoded in links")
    func storedValuesEscaped() async throws {
        try await ConsoleAccessTests.withConsole { service in
            let user = "<b>x</b>\"&'/?#"
            let path = "/v1/subscribers/" + Self.query(user) + "/grants"
            let granted = try await service.post(
                path, ["entitlement": "pro", "expires_at": NSNull(), "reason": "<img src=x onerror=alert(1)>"])
            #expect(granted.status == 201)
            let browser = ConsoleClient(service)
            try await browser.signIn("sam", Self.password)
            let found = try await browser.get("/console/customers?q=" + Self.query(user))
            #expect(found.status == 303)
            let location = try #require(found.location)
            #expect(location == "/console/customers/%3Cb%3Ex%3C%2Fb%3E%22%26%27%2F%3F%23")
            let page = try await browser.get(location)
            #expect(page.status == 200)
            #expect(!page.html.contains("<img src=x"))
            #expect(!page.html.contains("<b>x</b>"))
            #expect(page.html.contains("&lt;img src=x onerror=alert(1)&gt;"))
            #expect(page.html.contains("action=\"/console/customers/%3Cb%3Ex%3C%2Fb%3E%22%26%27%2F%3F%23/grants\""))
        }
    }

    @Test("a customer with hundreds of timeline items is read 50 at a time, every item once, newest first")
    func longTimeline() async throws {
        try await ConsoleAccessTests.withConsole { service in
            for number in 0..<130 {
                let granted = try await service.post(
                    "/v1/subscribers/busy/grants", ["entitlement": "pro", "expires_at": NSNull(), "reason": "comp \(number)"])
                let id = try #require(try jsonObject(granted)["grant_id"] as? Int)
                #expect(try await service.delete("/v1/subscribers/busy/grants/\(id)").status == 200)
            }
            let audit = try await service.database.query("SELECT count(*) AS n FROM audit_log WHERE app_user_id = 'busy'")
            let expected = Int(try audit[0].decode("n", as: Int64.self))
            #expect(expected == 260)
            let browser = ConsoleClient(service)
            try await browser.signIn("vera", Self.password)
            var next: String? = "/console/customers/busy"
            var rows: [String] = []
            var pages = 0
            while let path = next {
                let page = try await browser.get(path)
                #expect(page.status == 200)
                let pageRows = page.rows(of: "timeline")
                #expect(pageRows.count <= 50)
                rows += pageRows
                pages += 1
                next = Self.olderLink(page.html)
                if pages > 20 { break }
            }
            #expect(rows.count >= expected)
            #expect(Set(rows).count == rows.count)
            #expect(pages == (rows.count + 49) / 50)

            // subscriptionctl reads the same timeline, a page at a time.
            let first = try await CLI.run(["subscriber", "timeline", "busy", "--limit", "50"], databaseURL: service.databaseURL)
            #expect(first.status == 0, "\(first.stderr)")
            let lines = first.stdout.split(separator: "\n")
            #expect(lines.count == 52)
            let older = try #require(lines.last.map(String.init))
            #expect(older.hasPrefix("older: subscriptionctl subscriber timeline busy --before "))
            let position = String(older.split(separator: " ").last ?? "")
            let second = try await CLI.run(
                ["subscriber", "timeline", "busy", "--before", position, "--json"], databaseURL: service.databaseURL)
            let items = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [[String: Any]])
            #expect(items.count == 50)
            let nobody = try await CLI.run(["subscriber", "timeline", "nobody"], databaseURL: service.databaseURL)
            #expect(nobody.status == 1 && nobody.stderr.contains("nothing recorded for app_user_id nobody"))
        }
    }

    private static func olderLink(_ html: String) -> String? {
        guard let range = html.range(of: "<a rel=\"next\" href=\"") else { return nil }
        let rest = html[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end]).replacingOccurrences(of: "&amp;", with: "&").components(separatedBy: "#").first
    }

    private static func query(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
