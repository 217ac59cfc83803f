import ArgumentParser

/// `subscriptionctl notifications list|show|replay`.
struct NotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "Inspect and replay the notification inbox.",
        discussion: """
            States: pending (waiting for its first attempt, or replayed), retrying (failed in a way \
            that can heal; tried again later), processed (applied), dead (failed permanently).
            """,
        subcommands: [NotificationsListCommand.self, NotificationsShowCommand.self, NotificationsReplayCommand.self]
    )
}
