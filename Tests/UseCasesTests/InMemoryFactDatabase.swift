import AppStore
import Foundation
import Store
import Subscriptions
import Synchronization
import UseCases

/// Facts, links and token owners in memory, applied through ``FactApplier`` as the store
/// would apply them: a transaction's writes are kept only when its body returns.
final class InMemoryFactDatabase: FactDatabase {
    struct State: Sendable {
        var transactions: [TransactionFact] = []
        var owners: [String: Set<String>] = [:]
        var tokens: [String: PurchaseOwnership.Token] = [:]
        var plansWritten = 0
    }

    let state: Mutex<State>

    init(tokens: [String: PurchaseOwnership.Token] = [:]) {
        state = Mutex(State(tokens: tokens))
    }

    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any FactTransaction) throws -> Result) async throws -> Result {
        let transaction = Transaction(state: state.withLock { $0 })
        let result = try body(transaction)
        state.withLock { $0 = transaction.state }
        return result
    }

    /// One transaction's view: a copy of the state, kept when the body returns.
    final class Transaction: FactTransaction, @unchecked Sendable {
        var state: State

        init(state: State) {
            self.state = state
        }

        func lockPurchases(of facts: [ReceiptFacts]) throws {}

        func storedPurchases(for facts: ReceiptFacts, claimant: String?) throws -> StoredPurchases {
            var stored = StoredPurchases()
            for fact in state.transactions where facts.originalTransactionIDs.contains(fact.originalTransactionID) { stored.add(fact) }
            for id in facts.originalTransactionIDs { stored.owners[id] = state.owners[id] ?? [] }
            stored.tokens = state.tokens
            return stored
        }

        func write(_ plan: ApplyPlan, notificationID: Int64?, now: Date) throws {
            for fact in plan.transactions {
                state.transactions.removeAll { $0.transactionID == fact.transactionID }
                state.transactions.append(fact)
            }
            for link in plan.links {
                state.owners[link.originalTransactionID, default: []].formUnion(link.change.link)
                state.owners[link.originalTransactionID]?.subtract(link.change.unlink)
            }
            state.plansWritten += 1
        }

        func markProcessed(_ attempts: [ProcessedAttempt]) throws {}
        func recordConsumptionRequest(_ request: NewConsumptionRequest) throws {}
        func recordConsumptionOutcome(_ outcome: String, environment: AppStoreEnvironment, transactionID: String, decidedAt: Date) throws {}
        func recordExtensionSummary(requestIdentifier: String, bundleID: String, succeededCount: Int?, failedCount: Int?) throws {}
        func recordNotificationEvent(
            _ event: AppleNotificationEvent, bundleID: String, environment: AppStoreEnvironment, webhookEvents: WebhookEventSelection,
            now: Date
        ) throws {}
        func recordRevalidation(_ item: RevalidationItem, outcome: String) throws {}
        func recordOriginalVersion(
            _ version: OriginalApplicationVersion, appUserID: String, proof: OriginalVersionStore.Proof, appTransactionID: String?
        ) throws {}
    }
}
