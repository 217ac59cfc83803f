import ArgumentParser

/// `subscriptionctl webhooks list|show|replay`.
struct WebhooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhooks",
        abstract: "Inspect and replay the outbound event outbox (status-change webhooks).",
        discussion: """
            States: pending (waiting for its first attempt, or replayed), delivered (the receiver \
            answered 2xx), retrying (failed; tried again with backoff for 3 days), dead (given up, \
            or its app has no webhook URL). Events of one subscription are sent in order.
            """,
        subcommands: [WebhooksListCommand.self, WebhooksShowCommand.self, WebhooksReplayCommand.self]
    )
}
