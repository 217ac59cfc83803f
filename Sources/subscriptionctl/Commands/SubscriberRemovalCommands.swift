import ArgumentParser
import Composition
import Foundation
import Store
import UseCases

/// `subscriptionctl subscriber unlink APP_USER_ID ORIGINAL_TRANSACTION_ID`.
struct SubscriberUnlinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlink",
        abstract: "Remove the link between an app user and a subscription or purchase.",
        discussion: """
            The subscription and its facts stay (other users keep their links); the user's \
            answers change at once. An audit row records it. Exit 1 when there is no such link.

            Example:
              subscriptionctl subscriber unlink user-42 1000000123456789
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The app's user id.")
    var appUserID: String

    @Argument(help: "The original transaction id of the subscription or purchase.")
    var originalTransactionID: String

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            try await ManualChange.refusing {
                try await context.forgetting.unlink(
                    appUserID: appUserID, originalTransactionID: originalTransactionID, actor: ManualChange.actor)
            }
            if options.json {
                try Output.json(["app_user_id": appUserID, "unlinked": originalTransactionID])
            } else {
                Output.line("unlinked \(appUserID) from \(originalTransactionID)")
            }
        }
    }
}

/// `subscriptionctl subscriber delete APP_USER_ID`.
struct SubscriberDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Forget an app user: links, grants, original application versions, stored answers.",
        discussion: """
            For privacy requests. Apple's facts stay (they are Apple's, and another user may own \
            them); purchases the user queued stay queued without the user's id. The audit row says \
            what was removed and when, not who the user was, and earlier audit rows lose the id too. \
            Exit 1 when nothing is known of the user.

            Example:
              subscriptionctl subscriber delete user-42
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The app's user id.")
    var appUserID: String

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let forgotten = try await ManualChange.refusing {
                try await context.forgetting.forget(appUserID: appUserID, actor: ManualChange.actor)
            }
            if options.json {
                try Output.json(["links": forgotten.links, "grants": forgotten.grants, "original_application_versions": forgotten.versions])
            } else {
                Output.line(
                    "forgot \(appUserID): \(forgotten.links) link(s), \(forgotten.grants) grant(s), "
                        + "\(forgotten.versions) original application version(s)")
            }
        }
    }
}
