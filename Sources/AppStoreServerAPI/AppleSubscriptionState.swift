import AppStore
import Foundation
import Logging
import Subscriptions

/// What the App Store Server API says about a subscription now, as facts: every signed
/// transaction and renewal info of Get All Subscription Statuses, plus (optionally) the
/// transaction history — each timed by its own `signedDate`, like a notification's. A
/// transaction that belongs to no subscription (a consumable, a non-consumable, a
/// non-renewing subscription) is read with Get Transaction Info instead.
public enum AppleSubscriptionState {
    /// The facts for the subscription that `transactionID` belongs to (any of its
    /// transactions will do), or for the one-time purchase it is, in the environment Apple
    /// answered from.
    public static func facts(
        transactionID: String, environment: AppStoreEnvironment?, withHistory: Bool, client: AppStoreAPIClient, logger: Logger? = nil
    ) async throws -> [ReceiptFacts] {
        let statuses: SubscriptionStatusesAnswer
        do {
            statuses = try await client.subscriptionStatuses(transactionID: transactionID, environment: environment, logger: logger)
        } catch AppStoreAPIError.notFound {
            return try await oneTimePurchase(
                transactionID: transactionID, environment: environment, withHistory: withHistory, client: client, logger: logger)
        }
        guard !statuses.groups.isEmpty else {
            return try await oneTimePurchase(
                transactionID: transactionID, environment: statuses.environment, withHistory: withHistory, client: client, logger: logger)
        }
        var facts: [ReceiptFacts] = []
        for group in statuses.groups {
            for last in group.lastTransactions {
                facts.append(
                    ReceiptFacts(
                        signedTransaction: last.transaction, renewalInfo: last.renewalInfo, bundleID: client.bundleID,
                        environment: statuses.environment))
            }
        }
        if withHistory {
            let history = try await client.transactionHistory(
                transactionID: transactionID, environment: statuses.environment, logger: logger)
            for transaction in history.transactions {
                facts.append(
                    ReceiptFacts(
                        signedTransaction: transaction, renewalInfo: nil, bundleID: client.bundleID, environment: history.environment))
            }
        }
        return facts.filter { !$0.transactions.isEmpty || !$0.renewals.isEmpty }
    }

    /// The facts of a transaction that is not a subscription's (Get Transaction Info), with the
    /// customer's history when asked; `notFound` when Apple does not know it either.
    private static func oneTimePurchase(
        transactionID: String, environment: AppStoreEnvironment?, withHistory: Bool, client: AppStoreAPIClient, logger: Logger?
    ) async throws -> [ReceiptFacts] {
        let info = try await client.transactionInfo(transactionID: transactionID, environment: environment, logger: logger)
        var facts = [
            ReceiptFacts(signedTransaction: info.transaction, renewalInfo: nil, bundleID: client.bundleID, environment: info.environment)
        ]
        if withHistory {
            let history = try await client.transactionHistory(transactionID: transactionID, environment: info.environment, logger: logger)
            for transaction in history.transactions {
                facts.append(
                    ReceiptFacts(
                        signedTransaction: transaction, renewalInfo: nil, bundleID: client.bundleID, environment: history.environment))
            }
        }
        return facts.filter { !$0.transactions.isEmpty }
    }
}
