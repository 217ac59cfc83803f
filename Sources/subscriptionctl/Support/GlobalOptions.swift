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
    /// comes from the service's own file; then reads each secret whose `*_FILE` variable is
    /// set (`DATABASE_URL_FILE`…) as subscriptiond does, so both read the same settings.
    mutating func validate() throws {
        do {
            if let envFile {
                for (key, value) in try EnvironmentFile.load(path: envFile)
                where (ProcessInfo.processInfo.environment[key] ?? "").isEmpty {
                    setenv(key, value, 1)
                }
            }
            try Self.readSecretFiles()
        } catch let error as ConfigurationError {
            throw ValidationError("\(error)")
        }
    }

    /// Replaces each `NAME_FILE` of the process environment with `NAME`, read from its file.
    private static func readSecretFiles() throws {
        let environment = ProcessInfo.processInfo.environment
        let resolved = try SecretSettings.resolve(environment)
        for name in SecretSettings.names {
            if let value = resolved[name], value != environment[name] { setenv(name, value, 1) }
            unsetenv(SecretSettings.fileVariable(name))
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
