import Foundation
import Postgres
import TestSupport
import Testing

@Suite("Postgres: prepared statements, once per connection")
struct PostgresPreparedStatementTests {
    private func preparedCount(_ session: PostgresSession) throws -> Int {
        try session.query("SELECT count(*) AS n FROM pg_prepared_statements")[0].decode("n")
    }

    @Test("a prepared query is prepared once and gives the same rows as an unprepared one")
    func preparedOnceSameAnswers() async throws {
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            try await client.withConnection { session throws in
                for value in ["plain", "it's", "", "émoji 🎉", "$1"] {
                    let query: PostgresQuery = "SELECT \(value)::text AS value, length(\(value)::text) AS n"
                    let prepared = try session.query(query.prepared())
                    let unprepared = try session.query(query)
                    #expect(try prepared[0].decode("value", as: String.self) == value)
                    #expect(try prepared[0].decode("n", as: Int.self) == unprepared[0].decode("n", as: Int.self))
                }
                #expect(try preparedCount(session) == 1)
            }
        }
    }

    @Test("errors keep their SQLSTATE; a statement the server refuses is not remembered; NUL is still refused")
    func errorsAndRefusals() async throws {
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            try await client.withConnection { session throws in
                let broken: PostgresQuery = "SELEC 1"
                #expect(throws: PostgresError.self) { try session.query(broken.prepared()) }
                do {
                    try session.query(broken.prepared())
                } catch let error as PostgresError {
                    #expect(error.sqlState == "42601")
                }
                try session.execute("CREATE TEMP TABLE t (k text PRIMARY KEY)")
                let insert: PostgresQuery = "INSERT INTO t (k) VALUES (\("one"))"
                try session.execute(insert.prepared())
                do {
                    try session.execute(insert.prepared())
                    Issue.record("a duplicate key was inserted")
                } catch let error as PostgresError {
                    #expect(error.isUniqueViolation)
                }
                let nul: PostgresQuery = "SELECT \("a\u{0}b")::text AS value"
                do {
                    try session.query(nul.prepared())
                    Issue.record("a NUL was sent")
                } catch let error as PostgresError {
                    #expect(error.code == .invalidParameter)
                }
                #expect(try preparedCount(session) == 1)
            }
        }
    }

    @Test("a prepared statement outlives a rolled-back transaction")
    func survivesRollback() async throws {
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            struct Rollback: Error {}
            let query: PostgresQuery = "SELECT \(1)::int AS one"
            _ = try? await client.withTransaction { session in
                try session.query(query.prepared())
                throw Rollback()
            }
            try await client.withConnection { session throws in
                #expect(try session.query(query.prepared())[0].decode("one", as: Int.self) == 1)
                #expect(try preparedCount(session) == 1)
            }
        }
    }

    @Test("a connection prepares a bounded number of statements; the rest run unprepared")
    func boundedPerConnection() async throws {
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            try await client.withConnection { session throws in
                for index in 0..<80 {
                    let query = PostgresQuery(sql: "SELECT $1::int + \(index) AS value", bindings: [.text("1")])
                    #expect(try session.query(query.prepared())[0].decode("value", as: Int.self) == index + 1)
                }
                #expect(try preparedCount(session) == 64)
            }
        }
    }

    @Test("text arrays keep quotes, backslashes, separators, NULL and the text NULL")
    func textArrayRoundTrip() async throws {
        try await TestDatabase.withClient { client, _ in
            let elements: [String?] = ["plain", "a \"quote\"", "back\\slash", "comma, {brace}", "", nil, "NULL", " spaced ", "é 🎉"]
            let rows = try await client.query(
                """
                SELECT value FROM unnest(\(PostgresTextArray(elements))::text[]) WITH ORDINALITY AS a (value, position) ORDER BY position
                """)
            #expect(try rows.map { try $0.decode("value", as: String?.self) } == elements)
        }
    }
}
