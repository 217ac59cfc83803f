import ArgumentParser
import Composition
import Foundation
import Store
import UseCases

/// `subscriptionctl suspicious [--min-apple-accounts N]`.
struct SuspiciousCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suspicious",
        abstract: "App users fed by many Apple accounts, and purchases linked to many app users.",
        discussion: """
            The irregular activity Apple asks servers to watch for (one app account fed by \
            purchases of many Apple accounts: shared or resold accounts). Apple accounts are told \
            apart by the appTransactionId Apple signs into StoreKit 2 transactions, or else by the \
            original transaction of each subscription group (an account has one per group); the \
            count is a lower bound and never names an account. Exit 0 whether or not anything is found.

            Example:
              subscriptionctl suspicious --min-apple-accounts 3
            """
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: "List users fed by at least this many Apple accounts and purchases linked to at least this many users (2 or more).")
    var minAppleAccounts = 3

    func validate() throws {
        guard minAppleAccounts >= 2 else { throw ValidationError("--min-apple-accounts must be 2 or more") }
    }

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let report = try await context.irregularActivity.report(minimum: minAppleAccounts)
            if options.json {
                try Output.json(SuspiciousDocument(report))
                return
            }
            Output.line("app users fed by \(report.minimum) or more Apple accounts: \(report.users.count)")
            if !report.users.isEmpty {
                var table = Table("USER", "APPLE ACCOUNTS", "PURCHASES")
                for user in report.users { table.append([user.appUserID, String(user.appleAccounts), String(user.purchases)]) }
                Output.line(table.render())
            }
            Output.line("purchases linked to \(report.minimum) or more app users: \(report.purchases.count)")
            if !report.purchases.isEmpty {
                var table = Table("ENVIRONMENT", "ORIGINAL TRANSACTION", "USERS")
                for purchase in report.purchases {
                    table.append([purchase.environment, purchase.originalTransactionID, purchase.appUserIDs.joined(separator: ", ")])
                }
                Output.line(table.render())
            }
        }
    }
}

/// `suspicious --json`: `{"min_apple_accounts", "users": [{"app_user_id", "apple_accounts",
/// "purchases"}], "purchases": [{"environment", "original_transaction_id", "app_user_ids"}]}`.
struct SuspiciousDocument: Encodable {
    struct User: Encodable {
        let appUserID: String
        let appleAccounts: Int
        let purchases: Int

        enum CodingKeys: String, CodingKey {
            case appUserID = "app_user_id", appleAccounts = "apple_accounts", purchases
        }
    }

    struct Purchase: Encodable {
        let environment: String
        let originalTransactionID: String
        let appUserIDs: [String]

        enum CodingKeys: String, CodingKey {
            case environment, originalTransactionID = "original_transaction_id", appUserIDs = "app_user_ids"
        }
    }

    let minimumAppleAccounts: Int
    let users: [User]
    let purchases: [Purchase]

    enum CodingKeys: String, CodingKey {
        case minimumAppleAccounts = "min_apple_accounts", users, purchases
    }

    init(_ report: IrregularActivity.Report) {
        minimumAppleAccounts = report.minimum
        users = report.users.map { User(appUserID: $0.appUserID, appleAccounts: $0.appleAccounts, purchases: $0.purchases) }
        purchases = report.purchases.map {
            Purchase(environment: $0.environment, originalTransactionID: $0.originalTransactionID, appUserIDs: $0.appUserIDs)
        }
    }
}
