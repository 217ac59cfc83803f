import Foundation
import Store
import Testing
import UseCases

/// ``CustomerDirectory``'s decisions over in-memory records: what a typed text is looked up
/// as, what never reaches the store, bounds; and the cursors' link form.
@Suite("Use cases without a database: the console's customer directory")
struct CustomerDirectoryTests {
    /// Records what was asked and answers `matches`.
    actor RecordingRecords: CustomerRecords {
        var searches: [(text: String, token: String?, limit: Int)] = []
        var timelines: [(subject: TimelineSubject, limit: Int)] = []
        let matches: [CustomerMatch]

        init(matches: [CustomerMatch] = []) {
            self.matches = matches
        }

        func search(text: String, token: String?, limit: Int) async throws -> [CustomerMatch] {
            searches.append((text, token, limit))
            return matches
        }

        func timeline(of subject: TimelineSubject, before: TimelineCursor?, limit: Int) async throws -> TimelinePage {
            timelines.append((subject, limit))
            return .empty
        }

        func linkedUsers(of appUserID: String, limit: Int) async throws -> [(originalTransactionID: String, appUserID: String)] {
            []
        }
    }

    @Test("the text is trimmed; a UUID in any case is also looked up as a lower-case token; the limit is bounded")
    func whatIsLookedUp() async throws {
        let records = RecordingRecords()
        let directory = CustomerDirectory(records: records)
        _ = try await directory.search("  alice \n")
        _ = try await directory.search("\t6A1B2C3D-0000-4000-8000-00000000ABCD ", limit: 10_000)
        _ = try await directory.search("6a1b2c3d-0000-4000-8000-00000000abcg")
        let searches = await records.searches
        #expect(searches.map(\.text) == ["alice", "6A1B2C3D-0000-4000-8000-00000000ABCD", "6a1b2c3d-0000-4000-8000-00000000abcg"])
        #expect(searches.map(\.token) == [nil, "6a1b2c3d-0000-4000-8000-00000000abcd", nil])
        #expect(searches.map(\.limit) == [50, CustomerDirectory.maximumLimit, 50])
    }

    @Test("empty text, NUL, more than 512 bytes, or a limit below 1 find nothing without asking the store")
    func whatNeverReachesTheStore() async throws {
        let records = RecordingRecords(matches: [CustomerMatch(matchedBy: .appUserID, appUserID: "x")])
        let directory = CustomerDirectory(records: records)
        for text in ["", " \n\t ", "alice\0", "\0", String(repeating: "é", count: 257)] {
            #expect(try await directory.search(text).isEmpty)
        }
        #expect(try await directory.search("alice", limit: 0).isEmpty)
        #expect(await records.searches.isEmpty)
        #expect(try await directory.search(String(repeating: "a", count: 512)).count == 1, "512 bytes may still be an id")
    }

    @Test("matches come back in the store's order without duplicates")
    func duplicatesGo() async throws {
        let alice = CustomerMatch(matchedBy: .appUserID, appUserID: "alice", originalTransactionID: "1", environment: "Production")
        let bob = CustomerMatch(matchedBy: .originalTransactionID, appUserID: "bob", originalTransactionID: "1", environment: "Production")
        let directory = CustomerDirectory(records: RecordingRecords(matches: [alice, bob, alice, bob]))
        #expect(try await directory.search("1") == [alice, bob])
    }

    @Test("timelines: the subject asked for, a bounded limit, nothing for an empty id")
    func timelines() async throws {
        let records = RecordingRecords()
        let directory = CustomerDirectory(records: records)
        _ = try await directory.timeline(appUserID: "alice", limit: 5_000)
        _ = try await directory.timeline(originalTransactionID: "1", environment: "Sandbox")
        #expect(try await directory.timeline(appUserID: "") == .empty)
        #expect(try await directory.timeline(appUserID: "alice", limit: 0) == .empty)
        let asked = await records.timelines
        #expect(asked.map(\.subject) == [.customer(appUserID: "alice"), .purchase(originalTransactionID: "1", environment: "Sandbox")])
        #expect(asked.map(\.limit) == [CustomerDirectory.maximumLimit, 50])
    }

    @Test("cursors survive a link to the microsecond; anything else reads as nil")
    func cursorText() {
        let at = Date(timeIntervalSince1970: 1_790_000_000.123456)
        let cursor = TimelineCursor(at: at, kind: .transaction, key: "Sandbox:2000.0001_x")
        #expect(cursor.text == "1790000000123456.transaction.Sandbox:2000.0001_x")
        let read = TimelineCursor(text: cursor.text)
        #expect(read?.kind == .transaction && read?.key == cursor.key && read?.text == cursor.text)
        #expect(read.map { abs($0.at.timeIntervalSince(at)) < 0.000_001 } == true)
        for text in ["", "1", "1.transaction", "x.audit.1", "1.Audit.1", "99999999999999999999.audit.1", "253402300800000000.audit.1"] {
            #expect(TimelineCursor(text: text) == nil, "\(text)")
        }
        let list = ListCursor(at: at, id: 42)
        #expect(ListCursor(text: list.text)?.id == 42 && list.text == "1790000000123456.42")
        for text in ["", "1", "1.2.3", "a.1", "1.a", "-99999999999999999.1"] { #expect(ListCursor(text: text) == nil, "\(text)") }
    }
}
