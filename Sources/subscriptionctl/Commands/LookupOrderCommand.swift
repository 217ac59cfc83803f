import ArgumentParser
import Composition
import Foundation
import Settings
import UseCases

/// `subscriptionctl lookup-order ORDER_ID [--link APP_USER_ID] [--app BUNDLE_ID]`.
struct LookupOrderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup-order",
        abstract: "Find a customer's purchases by the order id of Apple's email receipt, and apply them.",
        discussion: """
            For "I paid and have nothing": the customer quotes the order id (like MK5TTTVWJH) \
            from Apple's email receipt or their purchase history. Look Up Order ID (App Store \
            Server API, production only) returns the order's signed transactions; each is \
            verified and applied with what Apple says now about its subscription, as a \
            notification would be. With --link the purchases are also linked to that app user, \
            under the app's link_policy (exit 1 when it refuses, nothing stored). Exit 1 when \
            Apple knows no such order or does not answer now.

            Examples:
              subscriptionctl lookup-order MK5TTTVWJH
              subscriptionctl lookup-order MK5TTTVWJH --link user-42
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The order id from Apple's email receipt.")
    var orderID: String

    @Option(help: ArgumentHelp("Link the order's purchases to this app user.", valueName: "app-user-id"))
    var link: String?

    @Option(help: "The app's bundle id (needed when several apps have an API key).")
    var app: String?

    func validate() throws {
        guard !orderID.isEmpty, orderID.count <= 64, orderID.allSatisfy({ $0.isLetter || $0.isNumber }) else {
            throw ValidationError("the order id is letters and digits, like MK5TTTVWJH")
        }
        if let link, link.isEmpty { throw ValidationError("--link needs an app user id") }
    }

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            try await APISession.with { session in
                let found = try await ManualChange.refusing {
                    try await context.orderLookup(evidence: session.evidence, apps: session.settings.apps)
                        .lookUp(orderID: orderID, bundleID: app, linkTo: link, logger: session.logger)
                }
                if options.json {
                    try Output.json(ApplePurchasesDocument(orderID: found.orderID, linkedTo: found.linkedTo, purchases: found.purchases))
                    return
                }
                let count = found.purchases.count
                Output.line(
                    "order \(found.orderID) (\(found.bundleID)): \(count) purchase\(count == 1 ? "" : "s") applied"
                        + (found.linkedTo.map { ", linked to \($0)" } ?? ""))
                Output.line(ApplePurchasesDocument.table(found.purchases))
            }
        }
    }
}
