import AppStore
import ArgumentParser
import Composition
import ContractDocuments
import Foundation
import Store
import Subscriptions
import UseCases

/// `subscriptionctl subscription show ORIGINAL_TRANSACTION_ID`.
struct SubscriptionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscription",
        abstract: "Inspect one subscription.",
        subcommands: [SubscriptionShowCommand.self]
    )
}

/// `subscriptionctl subscription show ORIGINAL_TRANSACTION_ID`.
struct SubscriptionShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "The whole story of one subscription: status and why, transactions, renewal info, notifications.",
        discussion: """
            The status is computed from the stored facts at this moment (as the query API does), \
            with the reason in words, e.g. "expired: customer cancelled, auto-renew was turned off \
            2026-10-03 09:12Z (30 days ago)". Then every transaction in order (trial / intro / paid, \
            refunded, upgraded), the renewal info, every notification that concerned it with its \
            state, and each recorded status change. A Production subscription is shown before a \
            Sandbox one with the same id. Each transaction shows its price (Apple's, else the \
            catalog's for its storefront) and estimated proceeds under the tax rates and Small \
            Business Program periods of SUBSCRIPTIOND_CONFIG.

            --json prints the subscription JSON of GET /v1/subscriptions/{id} (with "transactions") \
            plus "status_reason", "renewal_info" (object or null), "notifications", "status_events", \
            "revalidated_at" and "revalidation_outcome".

            Example:
              subscriptionctl subscription show 1000000123456789
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The subscription's original transaction id.")
    var originalTransactionID: String

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let now = Date()
            guard let story = try await context.story(originalTransactionID: originalTransactionID, now: now) else {
                throw CommandFailure.notFound("no subscription with original_transaction_id \(originalTransactionID)")
            }
            let document = SubscriptionDocument(
                story.view, includeTransactions: true, pricing: context.pricing, catalog: try await context.products.catalog())
            if options.json {
                try Output.json(SubscriptionStoryDocument(story: story, document: document, now: now))
            } else {
                SubscriptionStoryText(story: story, document: document, now: now).print()
            }
        }
    }
}

/// The human rendering of `subscription show`.
struct SubscriptionStoryText {
    let story: SubscriptionStory
    /// The subscription JSON's document, for the money of each transaction.
    let document: SubscriptionDocument
    let now: Date

    func print() {
        let snapshot = story.view.snapshot
        Output.line(
            Style.heading("subscription \(snapshot.originalTransactionID)") + "  \(snapshot.environment.rawValue) · \(snapshot.bundleID)")
        var fields = Fields()
        let reason = StatusExplanation.sentence(story, time: { TimeText.withAge($0, now: now) })
        fields.append("status", Style.status(snapshot.status.rawValue) + (snapshot.entitled ? " (entitled)" : " (not entitled)"))
        fields.append("why", reason)
        fields.append("product", snapshot.productID + (snapshot.subscriptionGroupID.map { " (group \($0))" } ?? ""))
        fields.append("expires", TimeText.withAge(snapshot.expiresAt, now: now))
        let latest = document.latestTransaction
        fields.append("price", MoneyText.line(latest.flatMap { document.money(of: $0.transactionID) }, storefront: latest?.storefront))
        if let latest, latest.isMonthlyCommitment {
            fields.append(
                "billing", "monthly through a 12-month commitment, until " + TimeText.withAge(latest.commitmentExpiresAt, now: now))
        }
        if let grace = snapshot.gracePeriodExpiresAt { fields.append("grace ends", TimeText.withAge(grace, now: now)) }
        fields.append("updated", TimeText.withAge(story.view.updatedAt, now: now))
        fields.append(
            "revalidated",
            story.revalidatedAt.map { TimeText.withAge($0, now: now) + (story.revalidationOutcome.map { ": \($0)" } ?? "") } ?? "never")
        Output.line(fields.render())

        Output.line("")
        Output.line(Style.heading("renewal info"))
        if let renewal = story.view.renewal {
            var info = Fields()
            info.append("auto-renew", AutoRenewText.short(renewal.autoRenewStatus) + (renewal.autoRenewProductID.map { " → \($0)" } ?? ""))
            info.append("expiration intent", renewal.expirationIntent?.rawValue ?? "-")
            info.append("billing retry", renewal.isInBillingRetryPeriod ? "yes" : "no")
            if let grace = renewal.gracePeriodExpiresDate { info.append("grace period ends", TimeText.withAge(grace, now: now)) }
            if let consent = renewal.priceConsentStatus { info.append("price consent", consent) }
            info.append("as of", TimeText.withAge(renewal.observedAt, now: now))
            Output.line(info.render())
        } else {
            Output.line("no renewal info stored")
        }

        Output.line("")
        Output.line(Style.heading("transactions (\(story.view.transactions.count), oldest first)"))
        var transactions = Table("TRANSACTION", "KIND", "PRODUCT", "PURCHASED", "EXPIRES", "PRICE", "PROCEEDS", "STOREFRONT", "NOTE")
        for transaction in story.view.transactions {
            let money = document.money(of: transaction.transactionID)
            transactions.append([
                transaction.transactionID, StatusExplanation.kind(transaction), transaction.productID,
                TimeText.withAge(transaction.purchaseDate, now: now), TimeText.withAge(transaction.expiresDate, now: now),
                MoneyText.price(money), MoneyText.proceeds(money), transaction.storefront ?? "-",
                StatusExplanation.note(transaction, time: { TimeText.withAge($0, now: now) }),
            ])
        }
        Output.line(transactions.render())

        Output.line("")
        Output.line(Style.heading("notifications (\(story.notifications.count))"))
        if story.notifications.isEmpty {
            Output.line("no notification names this subscription")
        } else {
            var notifications = Table("ID", "STATE", "TYPE", "RECEIVED", "ATTEMPTS", "LAST ERROR")
            for notification in story.notifications {
                notifications.append([
                    String(notification.id), Style.state(notification.state), notification.kind,
                    TimeText.withAge(notification.receivedAt, now: now), String(notification.attempts),
                    ErrorText.short(notification.lastError),
                ])
            }
            Output.line(notifications.render())
        }

        guard !story.statusEvents.isEmpty else { return }
        Output.line("")
        Output.line(Style.heading("status changes"))
        var events = Table("WHEN", "FROM", "TO", "NOTIFICATION")
        for event in story.statusEvents {
            events.append([
                TimeText.withAge(event.occurredAt, now: now), event.oldStatus.map(Style.status) ?? "(new)",
                Style.status(event.newStatus), event.notificationID.map(String.init) ?? "-",
            ])
        }
        Output.line(events.render())
    }
}

/// Failure reasons shortened for table cells (the full text is in `notifications show`).
enum ErrorText {
    static func short(_ error: String?, limit: Int = 60) -> String {
        guard let error, !error.isEmpty else { return "-" }
        let oneLine = error.replacingOccurrences(of: "\n", with: " ")
        return oneLine.count <= limit ? oneLine : String(oneLine.prefix(limit - 1)) + "…"
    }
}
