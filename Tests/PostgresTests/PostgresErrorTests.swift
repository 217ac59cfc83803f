import Postgres
import Testing

@Suite("Postgres: which server errors are worth retrying")
struct PostgresErrorTests {
    @Test(
        "transient SQLSTATEs",
        arguments: [
            ("08006", true), ("08001", true), ("08P01", true),  // connection exceptions
            ("57P01", true), ("57P02", true), ("57P03", true),  // admin shutdown, crash, cannot connect now
            ("57014", true),  // statement timeout / query canceled
            ("53000", true), ("53100", true), ("53200", true), ("53300", true),  // insufficient resources
            ("55P03", true),  // lock not available (lock_timeout)
            ("40001", true), ("40P01", true),  // serialization failure, deadlock
            ("25006", true),  // read-only transaction: a standby after failover
            ("23505", false), ("22007", false), ("22008", false), ("42P01", false), ("42601", false),
            ("25P02", false), ("40002", false), ("55000", false), ("57000", false), ("22021", false),
        ])
    func transientSQLStates(sqlState: String, expected: Bool) {
        #expect(PostgresError.isTransient(sqlState: sqlState) == expected, "\(sqlState)")
    }
}
