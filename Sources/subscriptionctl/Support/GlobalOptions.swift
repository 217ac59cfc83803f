import ArgumentParser
import Foundation
import Logging
import Settings

/// The options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(help: "libpq connection string or URL (default: $DATABASE_URL, else postgresql://localhost/subscriptiond).")
    var databaseURL: String?

    @Flag(help: "Print one JSON document on stdout instead of tables.")
    var json = false

    @Option(
        help:
            "Read settings from the service's environment file (KEY=VALUE lines, as systemd's EnvironmentFile=, e.g. /etc/subscriptiond/subscriptiond.env); variables set (non-empty) in the environment win."
    )
    var envFile: String?

    /// Loads `--env-file` into this process's environment, under variables already set (non-empty), so
    /// every setting the command reads (DATABASE_URL, SUBSCRIPTIOND_CONFIG, the API key…)
    /// comes from the service's own file.
    mutating func validate() throws {
        guard let envFile else { return }
        let variables: [String: String]
        do {
            variables = try EnvironmentFile.load(path: envFile)
        } catch let error as ConfigurationError {
            throw ValidationError("\(error)")
        }
        for (key, value) in variables where (ProcessInfo.processInfo.environment[key] ?? "").isEmpty {
            setenv(key, value, 1)
        }
    }

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
