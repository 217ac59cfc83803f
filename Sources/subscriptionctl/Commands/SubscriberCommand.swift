import AppStore
import ArgumentParser
import ContractDocuments
import Foundation
import Store
import SubscriptiondCore
import Subscriptions
import UseCases

/// `subscriptionctl subscriber show APP_USER_ID`.
struct SubscriberCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscriber",
        abstract: "Inspect an app user's subscriptions.",
        subcommands: [SubscriberShowCommand.self]
    )
}

/// `subscriptionctl subscriber show APP_USER_ID`.
struct SubscriberShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show an app user's subscriptions and the groups they are entitled to now.",
        discussion: """
            Statuses are computed from the stored facts at this moment, exactly as \
            GET /v1/subscribers/{app_user_id} answers; --json prints that subscriber JSON. \
            A user is known once POST /v1/receipts linked a receipt to it; otherwise exit 1.

            Example:
              subscriptionctl subscriber show user-42
              subscriptionctl subscriber show user-42 --json | jq '.entitled_groups'
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The app's user id (as linked by POST /v1/receipts).")
    var appUserID: String

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            guard let views = try await context.subscriptions.subscriber(appUserID: appUserID) else {
                throw CommandFailure.notFound("no subscriber with app_user_id \(appUserID)")
            }
            let document = SubscriberDocument(appUserID: appUserID, views: views)
            if options.json {
                try Output.json(document.jsonValue)
                return
            }
            let groups = document.entitledGroups
            Output.line("subscriber \(appUserID): " + (groups.isEmpty ? "not entitled to any group" : "entitled in group\(groups.count == 1 ? "" : "s") \(groups.joined(separator: ", "))"))
            Output.line("")
            guard !views.isEmpty else {
                Output.line("no subscriptions: the linked receipts hold no auto-renewable subscription")
                return
            }
            var table = Table("SUBSCRIPTION", "STATUS", "PRODUCT", "EXPIRES", "AUTO-RENEW", "GROUP", "ENV")
            let now = Date()
            for view in views {
                let snapshot = view.snapshot
                table.append([
                    snapshot.originalTransactionID, Style.status(snapshot.status.rawValue), snapshot.productID,
                    TimeText.withAge(snapshot.expiresAt, now: now), AutoRenewText.short(snapshot.autoRenew),
                    snapshot.subscriptionGroupID ?? "-", snapshot.environment.rawValue,
                ])
            }
            Output.line(table.render())
        }
    }
}

/// `on`, `off` or `-` for an auto-renew flag.
enum AutoRenewText {
    static func short(_ autoRenew: Bool?) -> String {
        autoRenew.map { $0 ? "on" : "off" } ?? "-"
    }
}
