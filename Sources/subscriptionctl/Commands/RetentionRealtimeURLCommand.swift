import AppStore
import AppStoreServerAPI
import ArgumentParser
import Composition
import Foundation

/// `subscriptionctl retention realtime-url show|set|delete`.
struct RetentionRealtimeURLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realtime-url",
        abstract: "Show, set and delete the URL Apple calls for a retention message (subscriptiond's /retention/appstore).",
        discussion: """
            Set it in Sandbox first, pass `retention performance-test`, then set it in Production \
            (Apple refuses Production until a test has passed).

            Example:
              subscriptionctl retention realtime-url set https://subs.example.com/retention/appstore --environment Sandbox
            """,
        subcommands: [RetentionRealtimeURLShowCommand.self, RetentionRealtimeURLSetCommand.self, RetentionRealtimeURLDeleteCommand.self]
    )
}

/// `subscriptionctl retention realtime-url show`.
struct RetentionRealtimeURLShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print the configured URL (exit 1 when none is).")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var target: RetentionTarget

    func run() async throws {
        try await APICommandExecution.run { session in
            let client = try session.client(app: target.app)
            let url = try await client.realtimeURL(environment: target.appStoreEnvironment, logger: session.logger)
            if options.json {
                try Output.json(
                    RealtimeURLDocument(app: client.bundleID, environment: target.appStoreEnvironment.rawValue, realtimeURL: url))
            } else {
                Output.line(url)
            }
        }
    }
}

/// `subscriptionctl retention realtime-url set URL`.
struct RetentionRealtimeURLSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Configure the URL Apple calls in the environment.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var target: RetentionTarget

    @Argument(help: "The absolute https:// URL of the Get Retention Message endpoint (at most 256 characters).")
    var url: String

    func validate() throws {
        guard url.count <= AppStoreAPIClient.maximumRealtimeURLLength else {
            throw ValidationError("the URL has \(url.count) characters; Apple allows \(AppStoreAPIClient.maximumRealtimeURLLength)")
        }
        guard let parsed = URL(string: url), ["https", "http"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
            throw ValidationError("the URL must be absolute, like https://subs.example.com/retention/appstore")
        }
    }

    func run() async throws {
        try await APICommandExecution.run { session in
            let client = try session.client(app: target.app)
            try await client.configureRealtimeURL(url, environment: target.appStoreEnvironment, logger: session.logger)
            Output.line("Apple (\(target.appStoreEnvironment.rawValue)) calls \(url) for \(client.bundleID)'s retention messages")
        }
    }
}

/// `subscriptionctl retention realtime-url delete`.
struct RetentionRealtimeURLDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Remove the URL: Apple shows default messages only (exit 1 when none is set).")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var target: RetentionTarget

    func run() async throws {
        try await APICommandExecution.run { session in
            let client = try session.client(app: target.app)
            try await client.deleteRealtimeURL(environment: target.appStoreEnvironment, logger: session.logger)
            Output.line("deleted the realtime URL of \(client.bundleID) (\(target.appStoreEnvironment.rawValue))")
        }
    }
}

/// `retention realtime-url show --json`.
struct RealtimeURLDocument: Encodable {
    let app: String
    let environment: String
    let realtimeURL: String

    enum CodingKeys: String, CodingKey {
        case app, environment, realtimeURL = "realtime_url"
    }
}
