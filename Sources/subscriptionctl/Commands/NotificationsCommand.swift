import ArgumentParser

/// `subscriptionctl notifications list|show|replay|discard`.
struct NotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "Inspect, replay and discard entries of the notification inbox.",
        discussion: """
            States: pending (waiting for its first attempt, or replayed), retrying (failed in a way \
            that can heal; tried again later), processed (applied), dead (failed permanently).
            """,
        subcommands: [
            NotificationsListCommand.self, NotificationsShowCommand.self, NotificationsReplayCommand.self, NotificationsDiscardCommand.self,
            NotificationsBackfillCommand.self,
        ]
    )
}
