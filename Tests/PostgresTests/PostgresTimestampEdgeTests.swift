import Foundation
import Postgres
import TestSupport
import Testing

@Suite("Postgres: dates PostgreSQL cannot take fail the statement, never the process")
struct PostgresTimestampEdgeTests {
    /// Seconds since 1970, not `Date`s: Foundation's own `Date.description` traps on some of
    /// these, and the test runner describes its arguments.
    static let unstorable: [Double] = [
        1e20, -1e20, .infinity, -.infinity, .nan, .greatestFiniteMagnitude,
        // Foundation's distantPast is 0001-01-01 in the Julian calendar: 0000-12-30 proleptic Gregorian.
        Date.distantPast.timeIntervalSince1970,
        253_402_300_800,  // 10000-01-01
        -62_135_596_801,  // 0000-12-31 23:59:59
    ]

    @Test("out-of-range and non-finite dates encode without trapping, as no timestamp", arguments: unstorable)
    func encodesWithoutTrapping(_ seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        guard case .text(let literal) = date.postgresValue else {
            Issue.record("a date encodes as text")
            return
        }
        #expect(!literal.contains("+00"))
    }

    @Test("the server rejects them with a data exception", arguments: unstorable)
    func serverRejects(_ seconds: Double) async throws {
        let date = Date(timeIntervalSince1970: seconds)
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            do {
                try await client.query("SELECT \(date)::timestamptz AS at")
                Issue.record("an unstorable date must fail the statement")
            } catch let error as PostgresError {
                #expect(error.code == .server)
                #expect(error.sqlState == "22007" || error.sqlState == "22008", "\(error)")
                #expect(!error.isTransient)
            }
            // The connection is still good.
            #expect(try await client.query("SELECT 1 AS one")[0].decode("one", as: Int.self) == 1)
        }
    }

    @Test(
        "the first and last storable seconds, and distantFuture, round-trip",
        arguments: [
            (-62_135_596_800.0, "0001-01-01 00:00:00+00"),
            (253_402_300_799.0, "9999-12-31 23:59:59+00"),
            (Date.distantFuture.timeIntervalSince1970, "4001-01-01 00:00:00+00"),
        ])
    func boundaryRoundTrip(seconds: Double, text: String) async throws {
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            let date = Date(timeIntervalSince1970: seconds)
            let row = try #require(try await client.query("SELECT \(date)::timestamptz AS at, \(date)::timestamptz::text AS text").first)
            #expect(try row.decode("at", as: Date.self) == date)
            #expect(try row.decode("text", as: String.self) == text)
        }
    }
}
