import AppStore
import ArgumentParser
import Composition
import ContractDocuments
import Foundation
import Store
import StoredAnswers
import Subscriptions
import UseCases

/// `subscriptionctl subscriber show APP_USER_ID`.
struct SubscriberCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscriber",
        abstract: "Inspect an app user's entitlements and subscriptions; remove a link or forget the user.",
        subcommands: [
            SubscriberShowCommand.self, SubscriberTimelineCommand.self, SubscriberUnlinkCommand.self, SubscriberDeleteCommand.self,
        ]
    )
}

/// `subscriptionctl subscriber show APP_USER_ID`.
struct SubscriberShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show an app user's entitlements, purchases and subscriptions.",
        discussion: """
            Entitlements and statuses are computed from the stored facts at this moment, exactly as \
            GET /v1/subscribers/{app_user_id} answers, under the apps' policies in SUBSCRIPTIOND_CONFIG \
            (grandfather, sandbox_entitlement), each purchase and each subscription's latest period \
            priced and its proceeds estimated under the money settings there (tax_rates, \
            small_business_program); --json prints that subscriber JSON. A user is known \
            once a purchase was linked to it, an entitlement granted or an original application \
            version recorded; otherwise exit 1.

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
            let now = Date()
            guard let document = try await context.readAnswers(logger: options.logger).subscriberDocument(appUserID: appUserID, now: now)
            else {
                throw CommandFailure.notFound("no subscriber with app_user_id \(appUserID)")
            }
            if options.json {
                try Output.json(document.jsonValue)
                return
            }
            let groups = document.entitledGroups
            Output.line(
                "subscriber \(appUserID): "
                    + (groups.isEmpty
                        ? "not entitled to any group"
                        : "entitled in group\(groups.count == 1 ? "" : "s") \(groups.joined(separator: ", "))"))
            Output.line("")
            Self.printEntitlements(document, now: now)
            var finishes: [String: TransactionFinish] = [:]
            for environment in Set(document.purchases.map(\.fact.environment)) {
                let ids = document.purchases.filter { $0.fact.environment == environment }.map(\.fact.originalTransactionID)
                for finish in try await context.transactionFinishes.finishes(environment: environment, originalTransactionIDs: ids) {
                    finishes[finish.transactionID] = finish
                }
            }
            Self.printPurchases(document, finishes: finishes, now: now)
            guard !document.views.isEmpty else {
                Output.line("no subscriptions: the linked receipts hold no auto-renewable subscription")
                return
            }
            var table = Table("SUBSCRIPTION", "STATUS", "PRODUCT", "EXPIRES", "AUTO-RENEW", "PRICE", "PROCEEDS", "GROUP", "ENV")
            for subscription in document.subscriptions {
                let snapshot = subscription.view.snapshot
                let money = subscription.latestTransaction.flatMap { subscription.money(of: $0.transactionID) }
                table.append([
                    snapshot.originalTransactionID, Style.status(snapshot.status.rawValue), snapshot.productID,
                    TimeText.withAge(snapshot.expiresAt, now: now), AutoRenewText.short(snapshot.autoRenew), MoneyText.price(money),
                    MoneyText.proceeds(money), snapshot.subscriptionGroupID ?? "-", snapshot.environment.rawValue,
                ])
            }
            Output.line(table.render())
        }
    }

    /// Every entitlement of the catalog: whether it is active, from which source, until when.
    private static func printEntitlements(_ document: SubscriberDocument, now: Date) {
        guard !document.entitlements.isEmpty else {
            Output.line("no entitlements in the catalog (products import a file with \"entitlements\")")
            Output.line("")
            return
        }
        var table = Table("ENTITLEMENT", "ACTIVE", "SOURCE", "PRODUCT", "EXPIRES", "ENV")
        for id in document.entitlements.keys.sorted() {
            guard let state = document.entitlements[id] else { continue }
            table.append([
                id, state.active ? "yes" : "no", state.source?.rawValue ?? "-", state.productID ?? "-",
                state.active ? (state.expiresAt.map { TimeText.withAge($0, now: now) } ?? "never") : "-",
                state.environment?.rawValue ?? "-",
            ])
        }
        Output.line(table.render())
        Output.line("")
    }

    /// One-time purchases (consumables, non-consumables, non-renewing subscriptions), with
    /// their Finish Transaction (apps with `finish_transactions`; `-` for others).
    private static func printPurchases(_ document: SubscriberDocument, finishes: [String: TransactionFinish], now: Date) {
        guard !document.purchases.isEmpty else { return }
        var table = Table("PURCHASE", "PRODUCT", "TYPE", "BOUGHT", "ENDS", "REVOKED", "PRICE", "PROCEEDS", "STOREFRONT", "FINISH", "ENV")
        for purchase in document.purchases {
            let fact = purchase.fact
            let money = document.money(ofPurchase: fact)
            table.append([
                fact.transactionID, fact.productID, purchase.type?.rawValue ?? "-", TimeText.withAge(fact.purchaseDate, now: now),
                purchase.expiresAt.map { TimeText.withAge($0, now: now) } ?? "-",
                fact.isRevoked ? TimeText.withAge(fact.cancellationDate, now: now) + (fact.revocationType.map { " (\($0))" } ?? "") : "-",
                MoneyText.price(money), MoneyText.proceeds(money), fact.storefront ?? "-",
                finishes[fact.transactionID].map { FinishText.short($0, now: now) } ?? "-", fact.environment.rawValue,
            ])
        }
        Output.line(table.render())
        Output.line("")
    }
}

/// `subscriptionctl subscriber timeline APP_USER_ID [--before CURSOR] [--limit N]`.
struct SubscriberTimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract:
            "Show an app user's timeline, newest first: transactions, renewal info, notifications, status changes, webhook events, changes by hand.",
        discussion: """
            The same timeline as the console's customer page, a page at a time; the last line gives \
            the --before value of the next (older) page. --json prints the items.

            Example:
              subscriptionctl subscriber timeline user-42 --limit 20
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The app's user id.")
    var appUserID: String

    @Option(help: "Continue after this position (printed at the end of the previous page).")
    var before: String?

    @Option(help: "Items per page (1 to 200).")
    var limit = 50

    func run() async throws {
        guard (1...CustomerDirectory.maximumLimit).contains(limit) else {
            throw ValidationError("--limit must be 1 to \(CustomerDirectory.maximumLimit), got \(limit)")
        }
        let cursor = try before.map { text -> TimelineCursor in
            guard let cursor = TimelineCursor(text: text) else {
                throw ValidationError("--before \(text) is not a position this command printed")
            }
            return cursor
        }
        try await CommandExecution.withDatabase(options) { context in
            let page = try await context.customers.timeline(appUserID: appUserID, before: cursor, limit: limit)
            if options.json {
                struct Item: Encodable {
                    let at: Date
                    let kind: String
                    let title: String
                    let detail: String?
                }
                try Output.json(page.items.map { Item(at: $0.at, kind: $0.kind.rawValue, title: $0.title, detail: $0.detail) })
                return
            }
            guard !page.items.isEmpty else {
                throw CommandFailure.notFound(
                    "nothing recorded for app_user_id \(appUserID)" + (before == nil ? "" : " before that position"))
            }
            var table = Table("WHEN", "WHAT", "EVENT", "DETAIL")
            for item in page.items {
                table.append([TimeText.utc(item.at), item.kind.rawValue, item.title, item.detail ?? "-"])
            }
            Output.line(table.render())
            if let next = page.next { Output.line("older: subscriptionctl subscriber timeline \(appUserID) --before \(next.text)") }
        }
    }
}

/// `on`, `off` or `-` for an auto-renew flag.
enum AutoRenewText {
    static func short(_ autoRenew: Bool?) -> String {
        autoRenew.map { $0 ? "on" : "off" } ?? "-"
    }
}

/// A purchase's Finish Transaction in a word or two: `finished 2m ago`, `awaiting delivery`,
/// `due (3 attempts: last error)`, `failed: why`.
enum FinishText {
    static func short(_ finish: TransactionFinish, now: Date) -> String {
        switch finish.state {
        case .finished: "finished " + TimeText.withAge(finish.finishedAt, now: now)
        case .awaitingDelivery: "awaiting delivery"
        case .due where finish.attempts > 0: "retrying (\(finish.attempts) attempts: \(finish.lastError ?? "-"))"
        case .due: "due"
        case .failed: "failed: \(finish.lastError ?? "-")"
        }
    }
}
