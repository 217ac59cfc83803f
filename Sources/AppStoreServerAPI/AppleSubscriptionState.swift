import AppStore
import Foundation
import Logging
import Subscriptions

/// What the App Store Server API says about a subscription now, as facts: every signed
/// transaction and renewal info of Get All Subscription Statuses, plus (optionally) the
/// transaction history — each timed by its own `signedDate`, like a notification's.
public enum AppleSubscriptionState {
    /// The facts for the subscription that `transactionID` belongs to (any of its
    /// transactions will do), in the environment Apple answered from.
    public static func facts(
        transactionID: String, environment: AppStoreEnvironment?, withHistory: Bool, client: AppStoreAPIClient, logger: Logger? = nil
    ) async throws -> [ReceiptFacts] {
        let statuses = try await client.subscriptionStatuses(transactionID: transactionID, environment: environment, logger: logger)
        var facts: [ReceiptFacts] = []
        for group in statuses.groups {
            for last in group.lastTransactions {
                facts.append(ReceiptFacts(
                    signedTransaction: last.transaction, renewalInfo: last.renewalInfo, bundleID: client.bundleID,
                    environment: statuses.environment))
            }
        }
        if withHistory {
            let history = try await client.transactionHistory(transactionID: transactionID, environment: statuses.environment, logger: logger)
            for transaction in history.transactions {
                facts.append(ReceiptFacts(signedTransaction: transaction, renewalInfo: nil, bundleID: client.bundleID, environment: history.environment))
            }
        }
        return facts.filter { !$0.transactions.isEmpty || !$0.renewals.isEmpty }
    }
}
