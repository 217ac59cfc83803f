import ArgumentParser
import Foundation
import Logging

/// The options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(help: "libpq connection string or URL (default: $DATABASE_URL, else postgresql://localhost/subscriptiond).")
    var databaseURL: String?

    @Flag(help: "Print one JSON document on stdout instead of tables.")
    var json = false

    /// The database URL from the flag, the environment, or the contract's default.
    var resolvedDatabaseURL: String {
        if let databaseURL, !databaseURL.isEmpty { return databaseURL }
        if let fromEnvironment = ProcessInfo.processInfo.environment["DATABASE_URL"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return "postgresql://localhost/subscriptiond"
    }

    /// The command's logger: stderr, warnings and worse only.
    var logger: Logger {
        var logger = Logger(label: "subscriptionctl")
        logger.logLevel = .warning
        return logger
    }

}
