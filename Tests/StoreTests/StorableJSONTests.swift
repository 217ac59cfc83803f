import AppStore
import JSON
import Postgres
import Store
import TestSupport
import Testing

/// `StorableJSON` judges a number the way PostgreSQL's `jsonb` input does (or a little more
/// strictly): every literal it admits stores, and every literal PostgreSQL refuses it refuses.
@Suite("StorableJSON: numbers PostgreSQL's jsonb cannot hold are found before the insert")
struct StorableJSONTests {
    static let literals: [String] =
        [
            "0", "-0", "1", "-1.5", "1e400", "1e-400", "1e131071", "1e131072", "10e131071", "0.1e131072", "0.1e131073",
            "1e-16383", "1.5e-16383", "100e-16385", "0.0e-99999", "0e5000", "0e2147483648", "-1e131071",
            "1E+131071", "1E+131072", "0.00001e131076", "0.00001e131077", "123.456e-16380", "123.456e-16381",
            "1e999999999999", "0.000e5", "5e-324", "1.7976931348623157e308",
        ] + [
            String(repeating: "9", count: 131_072), String(repeating: "9", count: 131_073), "0." + String(repeating: "9", count: 16_383),
            "0." + String(repeating: "9", count: 16_384), "-" + String(repeating: "9", count: 131_073),
        ]

    /// Stricter by design: an exponent past 10^8 is refused even where PostgreSQL would store a zero.
    @Test func hugeExponentsAreRefusedWhateverTheDigits() throws {
        for literal in ["0e999999999", "0e100000001", "1e-100000001"] {
            let tree = try StrictJSONParser.parse(Array("[\(literal)]".utf8))
            #expect(StorableJSON.firstUnstorableNumber(in: tree) != nil, "\(literal)")
        }
    }

    @Test func verdictsAgreeWithPostgreSQL() async throws {
        try await TestDatabase.withClient { database, _ in
            for literal in Self.literals {
                let body = #"{"x": [\#(literal)]}"#
                let tree = try StrictJSONParser.parse(Array(body.utf8))
                let admitted = StorableJSON.firstUnstorableNumber(in: tree) == nil
                let stored: Bool
                do {
                    _ = try await database.query("SELECT (\(body))::jsonb IS NOT NULL AS ok")
                    stored = true
                } catch {
                    stored = false
                }
                let name = literal.count > 30 ? "\(literal.prefix(12))…(\(literal.count) characters)" : literal
                // Never looser than PostgreSQL: what it admits always stores.
                if admitted { #expect(stored, "\(name) was admitted but PostgreSQL refuses it") }
                // And not stricter anywhere in this list.
                if stored { #expect(admitted, "\(name) stores but was refused") }
            }
        }
    }
}
