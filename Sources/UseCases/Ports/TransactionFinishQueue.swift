import Foundation
import Store

/// The Finish Transaction queue (`TransactionFinishStore` in production).
public protocol TransactionFinishQueue: Sendable {
    func claimDue(limit: Int, lease: Duration) async throws -> [TransactionFinish]
    func markFinished(_ finish: TransactionFinish) async throws
    func scheduleRetry(_ finish: TransactionFinish, at: Date, error: String) async throws
    func markFailed(_ finish: TransactionFinish, error: String) async throws
    func confirmDelivery(transactionID: String, by actor: String) async throws -> TransactionFinishStore.Delivery
    func bundleID(ofTransaction transactionID: String) async throws -> String?
}
