import AppStore
import ArgumentParser
import Composition
import Foundation
import Settings
import UseCases

/// `subscriptionctl refunds TRANSACTION_ID [--app BUNDLE_ID]`.
struct RefundsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refunds",
        abstract: "List a customer's refunds (Get Refund History), and apply them.",
        discussion: """
            Every refunded purchase of the customer who owns the transaction (any of theirs; \
            usually the original transaction id), from the App Store Server API, production \
            then sandbox. Each refund is Apple's verified word and is applied, so a REFUND \
            notification that never arrived heals. Exit 1 when Apple knows no such transaction \
            or does not answer now.

            Examples:
              subscriptionctl refunds 2000001024993299
              subscriptionctl refunds 2000001024993299 --json
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("Any transaction id of the customer.", valueName: "transaction-id"))
    var transactionID: String

    @Option(help: "The app's bundle id (needed when several apps have an API key).")
    var app: String?

    func validate() throws {
        guard !transactionID.isEmpty, transactionID.count <= 64, transactionID.allSatisfy(\.isNumber) else {
            throw ValidationError("a transaction id is digits, like 2000001024993299")
        }
    }

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            try await APISession.with { session in
                let found = try await ManualChange.refusing {
                    try await context.refundHistory(evidence: session.evidence, apps: session.settings.apps)
                        .refunds(transactionID: transactionID, bundleID: app, logger: session.logger)
                }
                if options.json {
                    try Output.json(ApplePurchasesDocument(orderID: nil, linkedTo: nil, purchases: found.refunds))
                    return
                }
                let count = found.refunds.count
                Output.line("\(count) refund\(count == 1 ? "" : "s") (\(found.environment.rawValue))")
                if count > 0 { Output.line(ApplePurchasesDocument.table(found.refunds)) }
            }
        }
    }
}

/// `lookup-order --json` and `refunds --json`: `{"order_id"?, "linked_to"?, "purchases": [{"transaction_id",
/// "original_transaction_id", "product_id", "type", "purchase_date", "expires_date", "revocation_date", "revocation_reason"}]}`.
struct ApplePurchasesDocument: Encodable {
    let orderID: String?
    let linkedTo: String?
    let purchases: [ApplePurchase]

    enum CodingKeys: String, CodingKey {
        case orderID = "order_id", linkedTo = "linked_to", purchases
    }

    enum PurchaseKeys: String, CodingKey {
        case transactionID = "transaction_id", originalTransactionID = "original_transaction_id", productID = "product_id", type
        case purchaseDate = "purchase_date", expiresDate = "expires_date", revocationDate = "revocation_date"
        case revocationReason = "revocation_reason"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(orderID, forKey: .orderID)
        try container.encodeIfPresent(linkedTo, forKey: .linkedTo)
        var list = container.nestedUnkeyedContainer(forKey: .purchases)
        for purchase in purchases {
            var item = list.nestedContainer(keyedBy: PurchaseKeys.self)
            try item.encode(purchase.transactionID, forKey: .transactionID)
            try item.encode(purchase.originalTransactionID, forKey: .originalTransactionID)
            try item.encode(purchase.productID, forKey: .productID)
            try item.encode(purchase.type, forKey: .type)
            try item.encode(purchase.purchaseDate, forKey: .purchaseDate)
            try item.encode(purchase.expiresDate, forKey: .expiresDate)
            try item.encode(purchase.revocationDate, forKey: .revocationDate)
            try item.encode(purchase.revocationReason, forKey: .revocationReason)
        }
    }

    /// The purchases as a table for people.
    static func table(_ purchases: [ApplePurchase]) -> String {
        var table = Table("TRANSACTION", "ORIGINAL", "PRODUCT", "TYPE", "PURCHASED", "EXPIRES", "REFUNDED")
        for purchase in purchases {
            table.append([
                purchase.transactionID, purchase.originalTransactionID, purchase.productID, purchase.type ?? "",
                purchase.purchaseDate.map(TimeText.utc) ?? "", purchase.expiresDate.map(TimeText.utc) ?? "",
                purchase.revocationDate.map(TimeText.utc) ?? "",
            ])
        }
        return table.render()
    }
}
