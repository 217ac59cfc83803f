import AppStore
import ArgumentParser
import Composition
import Foundation
import Settings
import UseCases

/// `subscriptionctl set-app-account-token ORIGINAL_TRANSACTION_ID APP_USER_ID`.
struct SetAppAccountTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-app-account-token",
        abstract: "Attach an app user to a purchase made outside the app (Set App Account Token), and link it.",
        discussion: """
            For a stored subscription of an app with an App Store Server API key: sets the user's \
            app account token on the purchase at Apple (App Store Server API 1.16), then reads the \
            purchase back and applies it, so it links to the user as a purchase made in the app \
            with that token would (under the app's link policy). The same as PUT \
            /v1/subscriptions/{original_transaction_id}/app-account-token. Exit 1 when the \
            subscription is not stored or Apple does not know it, 3 when Apple did not answer.

            Example:
              subscriptionctl set-app-account-token 2000001024993299 user-42
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The subscription's original transaction id.")
    var originalTransactionID: String

    @Argument(help: "The app's user id.")
    var appUserID: String

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            try await APISession.with(concurrency: 1) { session in
                let outcome = try await ManualChange.refusing {
                    try await context.appAccountTokenAssignment(
                        evidence: session.evidence, apps: session.settings.apps, logger: session.logger
                    )
                    .assign(originalTransactionID: originalTransactionID, appUserID: appUserID, by: ManualChange.principal)
                }
                Output.line(
                    "purchase \(originalTransactionID) (\(outcome.bundleID), \(outcome.environment.rawValue)) carries \(appUserID)'s app account token \(outcome.token) at Apple, and is linked"
                )
            }
        }
    }
}
