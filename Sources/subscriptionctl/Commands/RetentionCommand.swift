import AppStore
import AppStoreServerAPI
import ArgumentParser
import Composition
import Foundation
import Logging

/// `subscriptionctl retention messages|images|realtime-url|performance-test`: Apple's
/// Retention Messaging API with the app's In-App Purchase key.
struct RetentionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retention",
        abstract: "Manage Apple's Retention Messaging: messages, images, the realtime URL and its performance test.",
        discussion: """
            Talks to Apple's Retention Messaging API with the app's App Store Server API key \
            (APPSTORE_ISSUER_ID, APPSTORE_KEY_ID, APPSTORE_PRIVATE_KEY_FILE, or per app in \
            SUBSCRIPTIOND_CONFIG), through the same client, rate limits and retries as every other \
            call to Apple; no database is needed. Apple keeps messages, images and the realtime URL \
            per environment (--environment, Production by default). Exit 1 when Apple refuses \
            (its error is named), 2 for bad input or a missing key.
            """,
        subcommands: [
            RetentionMessagesCommand.self, RetentionImagesCommand.self, RetentionRealtimeURLCommand.self,
            RetentionPerformanceTestCommand.self,
        ]
    )
}

/// The app and environment every retention command addresses.
struct RetentionTarget: ParsableArguments {
    @Option(help: ArgumentHelp("The app (default: the only one with an API key).", valueName: "bundle-id"))
    var app: String?

    @Option(help: "Production or Sandbox: Apple keeps messages, images and URLs per environment.")
    var environment = "Production"

    func validate() throws {
        guard AppStoreEnvironment(appleValue: environment) != nil else {
            throw ValidationError("--environment must be Production or Sandbox, got '\(environment)'")
        }
    }

    /// The environment asked for (validated).
    var appStoreEnvironment: AppStoreEnvironment {
        AppStoreEnvironment(appleValue: environment) ?? .production
    }
}

extension RetentionTarget {
    /// Deletes the message or image (`kind`) `identifier` with `delete` and says so; an
    /// identifier that is not a UUID is one line and exit 2.
    func delete(
        _ kind: String, _ identifier: String,
        with delete: @escaping (AppStoreAPIClient, UUID, AppStoreEnvironment, Logger) async throws -> Void
    ) async throws {
        guard let uuid = UUID(uuidString: identifier) else {
            throw ValidationError("the \(kind) identifier must be a UUID, got '\(identifier)'")
        }
        try await APICommandExecution.run { session in
            let client = try session.client(app: app)
            try await delete(client, uuid, appStoreEnvironment, session.logger)
            Output.line("deleted \(kind) \(uuid.uuidString.lowercased()) of \(client.bundleID) (\(appStoreEnvironment.rawValue))")
        }
    }
}
