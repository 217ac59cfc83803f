import AppStore
import ArgumentParser
import Composition

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
