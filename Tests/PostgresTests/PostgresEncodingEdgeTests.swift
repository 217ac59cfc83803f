import Foundation
import Postgres
import TestSupport
import Testing

@Suite("Postgres: values libpq or PostgreSQL would mangle are refused or escaped")
struct PostgresEncodingEdgeTests {
    @Test(
        "a text parameter containing NUL is refused, never truncated",
        arguments: [
            "alice\u{0}x", "\u{0}", "trailing\u{0}",
        ])
    func nulIsRefused(_ value: String) async throws {
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            try await client.execute("CREATE TABLE names (name text)")
            for query: PostgresQuery in ["INSERT INTO names VALUES (\(value))", "INSERT INTO names SELECT unnest(\([value])::text[])"] {
                do {
                    try await client.execute(query)
                    Issue.record("a NUL in a text parameter must throw")
                } catch let error as PostgresError {
                    #expect(error.code == .invalidParameter)
                    #expect(!error.isTransient)
                    #expect(error.message == "parameter $1 contains a NUL character")
                    #expect(!error.description.contains("alice"))
                }
            }
            let count = try await client.query("SELECT count(*) AS n FROM names")[0].decode("n", as: Int.self)
            #expect(count == 0)
        }
    }

    static let arrayElements = [
        "\"\u{301}", "\u{301}\"", "\\\u{301}", "e\u{301}", "a\"b", "back\\slash", "\\", "\"", "\\\"",
        "comma,here", "{brace}", "}", "{", "NULL", "null", "", " spaced ", "tab\there", "line\nbreak", "🎉",
    ]

    @Test("a text array round-trips scalar for scalar through SELECT $1::text[] and = ANY")
    func arrayRoundTrip() async throws {
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            let elements = Self.arrayElements
            let rows = try await client.query("SELECT v FROM unnest(\(elements)::text[]) WITH ORDINALITY AS t(v, i) ORDER BY i")
            let decoded = try rows.map { try $0.decode("v", as: String.self) }
            // Compared scalar by scalar: String equality would call "e\u{301}" and "é" equal.
            #expect(decoded.map { Array($0.unicodeScalars) } == elements.map { Array($0.unicodeScalars) })
            let cardinality = try await client.query("SELECT cardinality(\(elements)::text[]) AS n")[0].decode("n", as: Int.self)
            #expect(cardinality == elements.count)
            for element in elements {
                let found = try await client.query("SELECT \(element)::text = ANY(\(elements)::text[]) AS found")
                #expect(try found[0].decode("found", as: Bool.self), "\(Array(element.unicodeScalars))")
            }
            let absent = try await client.query("SELECT \("é")::text = ANY(\(["\"\u{301}", "NULL"])::text[]) AS found")
            #expect(try absent[0].decode("found", as: Bool.self) == false)
        }
    }

    @Test("equalsOneOf binds one key as = $n and any other number as = ANY($n::text[]), and both select the same rows")
    func equalsOneOf() async throws {
        let one: PostgresQuery = "SELECT v FROM t WHERE v \(equalsOneOf: ["b"]) AND w = \(1)"
        #expect(one.sql == "SELECT v FROM t WHERE v = $1 AND w = $2")
        #expect(one.bindings == [.text("b"), .text("1")])
        let list: PostgresQuery = "SELECT v FROM t WHERE v \(equalsOneOf: ["a", "b"])"
        #expect(list.sql == "SELECT v FROM t WHERE v = ANY($1::text[])")
        #expect(list.bindings == [.text("{\"a\",\"b\"}")])
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            try await client.execute("CREATE TABLE t (v text)")
            try await client.execute("INSERT INTO t VALUES ('a'), ('b'), ('c')")
            for (keys, expected) in [(["b"], ["b"]), (["a", "c", "x"], ["a", "c"]), ([], [])] {
                let rows = try await client.query("SELECT v FROM t WHERE v \(equalsOneOf: keys) ORDER BY v")
                #expect(try rows.map { try $0.decode("v", as: String.self) } == expected)
            }
        }
    }

    @Test("a quote joined to a combining mark is still escaped")
    func arrayLiteralEscapesPerScalar() {
        #expect(["\"\u{301}"].postgresValue == .text("{\"\\\"\u{301}\"}"))
        #expect(["a", ""].postgresValue == .text("{\"a\",\"\"}"))
        #expect([String]().postgresValue == .text("{}"))
    }
}
