/// The time limits one connection applies, derived once from the configuration.
struct PostgresTimeouts: Sendable {
    /// How long to wait for the answer to one statement.
    let statementDeadline: Duration
    /// How long to wait for a `runScript`.
    let scriptDeadline: Duration
    /// The `SET`s every new session runs.
    let sessionSetup: String
    /// Raises `statement_timeout` for a script, a little under the client's script deadline
    /// so the server's clean cancel normally arrives before the client gives up.
    let scriptSetup: String
    /// Restores the session's `statement_timeout` after a script.
    let scriptReset: String

    init(_ configuration: PostgresConfiguration) {
        statementDeadline = configuration.statementDeadline
        scriptDeadline = configuration.scriptDeadline
        let statementTimeout = configuration.statementTimeout.postgresSettingText
        sessionSetup = """
            SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'iso_8601'; \
            SET client_min_messages = 'warning'; SET statement_timeout = '\(statementTimeout)'; \
            SET idle_in_transaction_session_timeout = '\(configuration.idleInTransactionTimeout.postgresSettingText)'; \
            SET lock_timeout = '\(configuration.lockTimeout.postgresSettingText)'
            """
        let margin: Duration = configuration.scriptDeadline > .seconds(10) ? .seconds(5) : configuration.scriptDeadline / 2
        scriptSetup = "SET statement_timeout = '\((configuration.scriptDeadline - margin).postgresSettingText)'"
        scriptReset = "SET statement_timeout = '\(statementTimeout)'"
    }
}
