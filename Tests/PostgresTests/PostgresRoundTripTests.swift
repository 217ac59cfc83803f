import Foundation
import Postgres
import TestSupport
import Testing

@Suite("Postgres: values round-trip through bound parameters")
struct PostgresRoundTripTests {
    @Test("text with quotes, backslashes, SQL and unicode comes back unchanged")
    func textRoundTrip() async throws {
        try await TestDatabase.withClient { client, _ in
            let samples = [
                "plain", "it's", "\"double\"", "back\\slash", "'; DROP TABLE products; --",
                "émoji 🎉 ∑ 中文", "$1 $2", "", String(repeating: "x", count: 1_000_000),
            ]
            for sample in samples {
                let row = try #require(try await client.query("SELECT \(sample)::text AS value").first)
                #expect(try row.decode("value", as: String.self) == sample)
            }
            // The would-be injection above was data: the table is still there.
            let count = try await client.query("SELECT count(*) AS n FROM products")
            #expect(try count[0].decode("n", as: Int.self) == 0)
        }
    }

    @Test("text arrays come back element for element, whatever the elements hold")
    func textArrayRoundTrip() async throws {
        try await TestDatabase.withClient { client, _ in
            let samples: [[String]] = [
                [], ["plain"], ["a", "b", "c"], ["", "NULL", "null", " spaced ", "comma,inside", "{braces}"],
                ["quote\"d", "back\\slash", "\\\"", "émoji 🎉", "tab\tand\nnewline", "group:123"],
            ]
            for sample in samples {
                let row = try #require(try await client.query("SELECT \(sample)::text[] AS value").first)
                #expect(try row.decode("value", as: [String].self) == sample)
            }
            // SQL NULL, as an element or as the column, is not a [String].
            let nulls = try #require(try await client.query("SELECT ARRAY['a', NULL]::text[] AS element, NULL::text[] AS whole").first)
            #expect(throws: PostgresError.self) { try nulls.decode("element", as: [String].self) }
            #expect(throws: PostgresError.self) { try nulls.decode("whole", as: [String].self) }
            #expect(try nulls.decode("whole", as: [String]?.self) == nil)
            // A two-dimensional array is refused, not flattened.
            let nested = try #require(try await client.query("SELECT ARRAY[['a'], ['b']]::text[] AS value").first)
            #expect(throws: PostgresError.self) { try nested.decode("value", as: [String].self) }
        }
    }

    @Test("arrays of other types carry every element, NULLs and bytes included")
    func encodedArrayRoundTrip() async throws {
        try await TestDatabase.withClient { client, _ in
            let numbers: [Int64?] = [1, nil, Int64.max, Int64.min]
            let dates: [Date?] = [Date(timeIntervalSince1970: 1_764_583_200.5), nil]
            let blobs: [PostgresBytes?] = [PostgresBytes([0, 1, 0x7f, 0x80, 0xff]), PostgresBytes([]), nil]
            let row = try #require(
                try await client.query(
                    """
                    SELECT array_to_string(\(PostgresTextArray(encoding: numbers))::bigint[], ',', 'null') AS numbers,
                           (\(PostgresTextArray(encoding: dates))::timestamptz[])[1] AS first_date,
                           (\(PostgresTextArray(encoding: dates))::timestamptz[])[2] IS NULL AS second_date_is_null,
                           (\(PostgresTextArray(encoding: blobs))::bytea[])[1] AS first_blob,
                           (\(PostgresTextArray(encoding: blobs))::bytea[])[2] AS second_blob,
                           (\(PostgresTextArray(encoding: blobs))::bytea[])[3] IS NULL AS third_blob_is_null
                    """
                ).first)
            #expect(try row.decode("numbers", as: String.self) == "1,null,9223372036854775807,-9223372036854775808")
            #expect(try row.decode("first_date", as: Date.self) == dates[0])
            #expect(try row.decode("second_date_is_null", as: Bool.self))
            #expect(try row.decode("first_blob", as: PostgresBytes.self) == PostgresBytes([0, 1, 0x7f, 0x80, 0xff]))
            #expect(try row.decode("second_blob", as: PostgresBytes.self) == PostgresBytes([]))
            #expect(try row.decode("third_blob_is_null", as: Bool.self))
        }
    }

    @Test("integers, booleans, doubles, NULL and optionals")
    func scalarRoundTrip() async throws {
        try await TestDatabase.withClient { client, _ in
            let big = Int64.max
            let small = Int64.min
            let missing: String? = nil
            let row = try #require(
                try await client.query(
                    """
                    SELECT \(big)::bigint AS big, \(small)::bigint AS small, \(true)::boolean AS yes,
                           \(false)::boolean AS no, \(2.5)::float8 AS half, \(missing)::text AS nothing
                    """
                ).first)
            #expect(try row.decode("big", as: Int64.self) == big)
            #expect(try row.decode("small", as: Int64.self) == small)
            #expect(try row.decode("yes", as: Bool.self) == true)
            #expect(try row.decode("no", as: Bool.self) == false)
            #expect(try row.decode("half", as: Double.self) == 2.5)
            #expect(try row.decode("nothing", as: String?.self) == nil)
            #expect(throws: PostgresError.self) { try row.decode("nothing", as: String.self) }
            #expect(throws: PostgresError.self) { try row.decode("no_such_column", as: String.self) }
        }
    }

    @Test(
        "timestamps keep microseconds and come back in UTC",
        arguments: [
            0.0, 1_764_583_200.123456, 1_000_000_000.5, -86_400.25, 4_102_444_800.000001,
        ])
    func timestampRoundTrip(seconds: Double) async throws {
        try await TestDatabase.withClient { client, _ in
            let date = Date(timeIntervalSince1970: seconds)
            let row = try #require(try await client.query("SELECT \(date)::timestamptz AS at, \(date)::timestamptz::text AS text").first)
            let decoded = try row.decode("at", as: Date.self)
            #expect(abs(decoded.timeIntervalSince1970 - seconds) < 0.000_002)
            #expect(try row.decode("text", as: String.self).hasSuffix("+00"))
        }
    }

    @Test("bytea with every byte value, and JSON text")
    func bytesAndJSON() async throws {
        try await TestDatabase.withClient { client, _ in
            let bytes = PostgresBytes((0...255).map { UInt8($0) } + [0, 0, 255])
            let row = try #require(try await client.query("SELECT \(bytes)::bytea AS b").first)
            #expect(try row.decode("b", as: PostgresBytes.self) == bytes)

            let json = #"{"name": "ö \"quoted\"", "list": [1, 2, 3]}"#
            let jsonRow = try #require(try await client.query("SELECT \(json)::jsonb ->> 'name' AS name, \(json)::jsonb AS doc").first)
            #expect(try jsonRow.decode("name", as: String.self) == "ö \"quoted\"")
            let doc = try jsonRow.decode("doc", as: String.self)
            let parsed = try JSONSerialization.jsonObject(with: Data(doc.utf8)) as? [String: Any]
            #expect(parsed?["list"] as? [Int] == [1, 2, 3])
        }
    }

    @Test("a text array binds for = ANY lookups, quotes and commas included")
    func textArray() async throws {
        try await TestDatabase.withClient { client, _ in
            let ids = ["a", "b,c", "d\"e", "f\\g", "{h}"]
            let rows = try await client.query("SELECT unnest(\(ids)::text[]) AS id")
            #expect(try rows.map { try $0.decode("id", as: String.self) } == ids)
        }
    }
}
