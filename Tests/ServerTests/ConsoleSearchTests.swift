import AppStore
import Composition
import Foundation
import Postgres
import Settings
import Store
import Subscriptions
import TestSupport
import Testing
import UseCases

/// The console's customer search against a real database: every field finds its customer,
/// an unlinked purchase is found, and no text, however hostile, makes it fail.
@Suite("Console reads: customer search")
struct ConsoleSearchTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// alice: one subscription of three periods, and one shared with bob; carol: a grant only;
    /// dave: a purchase carrying the token issued for him; erin: a token, nothing bought; a
    /// Sandbox purchase nobody is linked to; a user whose id is full of markup.
    private func withCustomers(_ body: (CustomerDirectory, _ daveToken: String, _ erinToken: String) async throws -> Void) async throws {
        try await TestDatabase.withClient { database, _ in
            try await ConsoleFixture.importCatalog(database)
            let start = Self.start
            let periods = (1...3).map {
                ConsoleFixture.period("610000000000000\($0)", of: "6100000000000001", start: start + Double($0) * 30 * 86_400)
            }
            try await ConsoleFixture.apply(periods, user: "alice", now: start + 100 * 86_400, in: database)
            for user in ["alice", "bob"] {
                try await ConsoleFixture.apply(
                    [ConsoleFixture.period("6100000000000010", of: "6100000000000010", start: start)], user: user, policy: .share,
                    now: start + 86_400, in: database)
            }
            try await ConsoleFixture.apply(
                [ConsoleFixture.period("6100000000000021", of: "6100000000000020", start: start, environment: .sandbox)], user: nil,
                now: start + 86_400, in: database)
            _ = try await ManualGrants(database: database).add(
                appUserID: "carol", entitlement: "pro", expiresAt: nil, reason: "comp", actor: "cli:tester")
            let apps = try ServiceConfiguration.load(
                environment: ["APPSTORE_BUNDLE_ID": ConsoleFixture.app, "APPSTORE_SHARED_SECRET": RunningService.sharedSecret]
            ).apps
            let tokens = AppAccountTokens(database: database, apps: apps)
            let daveToken = try await tokens.token(for: "dave", bundleID: ConsoleFixture.app)
            let erinToken = try await tokens.token(for: "erin", bundleID: ConsoleFixture.app)
            try await ConsoleFixture.apply(
                [ConsoleFixture.period("6100000000000031", of: "6100000000000030", start: start, token: daveToken)], user: nil,
                now: start + 86_400, in: database)
            try await ConsoleFixture.apply(
                [ConsoleFixture.period("6100000000000040", of: "6100000000000040", start: start)], user: #"o'brien <b>"x"</b>"#,
                now: start + 86_400, in: database)
            try await body(CustomerDirectory(database: database), daveToken, erinToken)
        }
    }

    @Test("each field finds its customer: app user id, original transaction id, transaction id, app account token (any case)")
    func everyFieldFindsTheCustomer() async throws {
        try await withCustomers { directory, daveToken, erinToken in
            let monthly = ConsoleFixture.monthly
            #expect(
                try await directory.search("alice") == [
                    CustomerMatch(
                        matchedBy: .appUserID, appUserID: "alice", originalTransactionID: "6100000000000001", environment: "Production",
                        productID: monthly),
                    CustomerMatch(
                        matchedBy: .appUserID, appUserID: "alice", originalTransactionID: "6100000000000010", environment: "Production",
                        productID: monthly),
                ])
            // The first transaction's id is the original's: found as both.
            #expect(
                try await directory.search(" 6100000000000001\n").map(\.matchedBy) == [.originalTransactionID, .transactionID])
            #expect(
                try await directory.search("6100000000000003") == [
                    CustomerMatch(
                        matchedBy: .transactionID, appUserID: "alice", originalTransactionID: "6100000000000001", environment: "Production",
                        productID: monthly)
                ])
            let shared = try await directory.search("6100000000000010")
            #expect(
                shared.filter { $0.matchedBy == .originalTransactionID }.map(\.appUserID) == ["alice", "bob"],
                "a purchase linked to two users: one match each")
            // The customer page's "other users" of a user's purchases, in one read.
            #expect(
                try await directory.linkedUsers(of: "alice").map { [$0.originalTransactionID, $0.appUserID] } == [
                    ["6100000000000010", "bob"]
                ])
            #expect(
                try await directory.linkedUsers(of: "bob").map { [$0.originalTransactionID, $0.appUserID] } == [
                    ["6100000000000010", "alice"]
                ])
            #expect(try await directory.linkedUsers(of: "carol").isEmpty)
            #expect(try await directory.search("carol") == [CustomerMatch(matchedBy: .appUserID, appUserID: "carol")], "known by a grant")
            #expect(
                try await directory.search(daveToken.uppercased()) == [
                    CustomerMatch(
                        matchedBy: .appAccountToken, appUserID: "dave", originalTransactionID: "6100000000000030",
                        environment: "Production",
                        productID: monthly)
                ])
            #expect(try await directory.search(erinToken) == [CustomerMatch(matchedBy: .appAccountToken, appUserID: "erin")])
            #expect(try await directory.search(#"o'brien <b>"x"</b>"#).map(\.originalTransactionID) == ["6100000000000040"])
            #expect(try await directory.search("nobody").isEmpty)
            #expect(try await directory.search("alice", limit: 1).count == 1, "bounded by the limit")
        }
    }

    @Test("a purchase nobody is linked to is found by its transaction id, with no user")
    func unlinkedPurchaseByTransactionID() async throws {
        try await withCustomers { directory, _, _ async throws in
            #expect(
                try await directory.search("6100000000000021") == [
                    CustomerMatch(
                        matchedBy: .transactionID, appUserID: nil, originalTransactionID: "6100000000000020", environment: "Sandbox",
                        productID: ConsoleFixture.monthly)
                ])
            #expect(try await directory.search("6100000000000020").first?.appUserID == nil)
        }
    }

    @Test("hostile texts (quotes, markup, 10 kB, NUL, emoji, bad UUIDs, wildcards) find nothing and never throw")
    func hostileTexts() async throws {
        let texts = [
            "", "   \n\t", "'", "' OR '1'='1", "'; DROP TABLE subscribers; --", "<script>alert(1)</script>", "\"", "\\", "%", "_", "a%",
            ".*", String(repeating: "a", count: 10_000), String(repeating: "9", count: 513), "alice\0", "\0", "\0alice", "🙂",
            "alice🙂", "👩‍👩‍👧‍👦", "00000000-0000-0000-0000-00000000000g", "6100000000000001 OR 1=1", "{\"app_user_id\":\"alice\"}",
            "\u{202E}ecila", "ａｌｉｃｅ", "ALICE",
        ]
        try await withCustomers { directory, _, _ async throws in
            for text in texts {
                let found = try await directory.search(text)
                #expect(found.isEmpty, "\(text.prefix(40).debugDescription) found \(found)")
            }
        }
    }
}
