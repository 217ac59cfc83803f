import AppStore
import Foundation
import Postgres
import Subscriptions

/// One purchase's Finish Transaction, as `transaction_finishes` keeps it.
public struct TransactionFinish: Sendable, Equatable {
    /// Where it stands.
    public enum State: String, Sendable, CaseIterable {
        /// A consumable waiting for the app's backend to confirm delivery.
        case awaitingDelivery = "awaiting_delivery"
        /// To be sent to Apple (again at `nextAttemptAt` after a failure).
        case due
        /// Apple took it.
        case finished
        /// Apple refused it for good (`lastError` says why).
        case failed
    }

    public let environment: AppStoreEnvironment
    public let transactionID: String
    public let bundleID: String
    public let originalTransactionID: String
    public let state: State
    public let attempts: Int
    public let nextAttemptAt: Date?
    public let lastError: String?
    public let deliveredBy: String?
    public let finishedAt: Date?
}

/// `transaction_finishes`: queued with the facts that brought a one-time purchase, claimed and
/// settled by the finish sender, confirmed by the app's backend for consumables.
public struct TransactionFinishStore: Sendable {
    private let client: PostgresClient

    /// Creates the store.
    public init(client: PostgresClient) {
        self.client = client
    }

    // MARK: In the transaction that applies facts

    /// Queues `finishes` (a purchase queued before keeps its row).
    static func queue(
        _ finishes: [ApplyPlan.Finish], environment: AppStoreEnvironment, bundleID: String, in session: PostgresSession
    ) throws {
        for finish in finishes {
            let state: TransactionFinish.State = finish.awaitsDelivery ? .awaitingDelivery : .due
            try session.execute(
                PostgresQuery(
                    """
                    INSERT INTO transaction_finishes (environment, transaction_id, bundle_id, original_transaction_id, state, next_attempt_at)
                    VALUES (\(environment.rawValue), \(finish.transactionID), \(bundleID), \(finish.originalTransactionID),
                            \(state.rawValue), CASE WHEN \(state.rawValue) = 'due' THEN now() END)
                    ON CONFLICT (environment, transaction_id) DO NOTHING
                    """
                ).prepared())
        }
    }

    // MARK: The finish sender

    /// Up to `limit` due finishes, each kept from other senders for `lease` (its attempt counted).
    public func claimDue(limit: Int, lease: Duration) async throws -> [TransactionFinish] {
        let rows = try await client.query(
            PostgresQuery(
                """
                UPDATE transaction_finishes f SET next_attempt_at = now() + make_interval(secs => \(lease.intervalSeconds)),
                    attempts = f.attempts + 1
                FROM (
                    SELECT environment, transaction_id FROM transaction_finishes
                    WHERE state = 'due' AND next_attempt_at <= now()
                    ORDER BY next_attempt_at LIMIT \(Int64(max(1, limit)))
                    FOR UPDATE SKIP LOCKED
                ) due
                WHERE f.environment = due.environment AND f.transaction_id = due.transaction_id
                RETURNING f.*
                """
            ).prepared())
        return try rows.map(Self.finish)
    }

    /// Apple took the finish.
    public func markFinished(_ finish: TransactionFinish) async throws {
        try await settle(finish, state: .finished, nextAttemptAt: nil, error: nil)
    }

    /// Apple did not answer or asked to wait: tried again at `at`.
    public func scheduleRetry(_ finish: TransactionFinish, at: Date, error: String) async throws {
        try await settle(finish, state: .due, nextAttemptAt: at, error: error)
    }

    /// Apple refused the finish for good.
    public func markFailed(_ finish: TransactionFinish, error: String) async throws {
        try await settle(finish, state: .failed, nextAttemptAt: nil, error: error)
    }

    private func settle(_ finish: TransactionFinish, state: TransactionFinish.State, nextAttemptAt: Date?, error: String?) async throws {
        try await client.execute(
            PostgresQuery(
                """
                UPDATE transaction_finishes SET state = \(state.rawValue), next_attempt_at = \(nextAttemptAt), last_error = \(error),
                    finished_at = CASE WHEN \(state.rawValue) = 'finished' THEN now() END
                WHERE environment = \(finish.environment.rawValue) AND transaction_id = \(finish.transactionID)
                  AND attempts = \(Int64(finish.attempts)) AND state = 'due'
                """
            ).prepared())
    }

    // MARK: The app's backend

    /// What confirming delivery of `transactionID` found.
    public enum Delivery: Sendable, Equatable {
        /// The purchase's finish, after the confirmation (due now, or as it was when confirmed before).
        case queued(TransactionFinish)
        /// A stored purchase whose app does not finish transactions (or that was stored before it did).
        case notQueued(bundleID: String)
        /// No stored transaction has this id.
        case unknown
    }

    /// Confirms that the app's backend delivered `transactionID`: a consumable awaiting it
    /// becomes due at once; anything else is reported as it is.
    public func confirmDelivery(transactionID: String, by actor: String) async throws -> Delivery {
        let updated = try await client.query(
            PostgresQuery(
                """
                UPDATE transaction_finishes SET state = 'due', next_attempt_at = now(), delivered_at = now(), delivered_by = \(actor)
                WHERE transaction_id = \(transactionID) AND state = 'awaiting_delivery'
                RETURNING \(unescaped: Self.columns)
                """
            ).prepared())
        if let row = updated.first { return .queued(try Self.finish(row)) }
        if let row = try await client.query(
            PostgresQuery(
                "SELECT \(unescaped: Self.columns) FROM transaction_finishes WHERE transaction_id = \(transactionID) LIMIT 1"
            ).prepared()
        ).first {
            return .queued(try Self.finish(row))
        }
        let stored = try await client.query(
            PostgresQuery("SELECT bundle_id FROM transactions WHERE transaction_id = \(transactionID) LIMIT 1").prepared())
        guard let row = stored.first else { return .unknown }
        return .notQueued(bundleID: try row.decode("bundle_id"))
    }

    // MARK: Reading

    /// The app of the stored transaction `transactionID`, or nil when none is stored.
    public func bundleID(ofTransaction transactionID: String) async throws -> String? {
        try await client.query(
            PostgresQuery("SELECT bundle_id FROM transactions WHERE transaction_id = \(transactionID) LIMIT 1").prepared()
        ).first?.decode("bundle_id")
    }

    /// The finishes of the purchases `originalTransactionIDs` in `environment`, by transaction id.
    public func finishes(environment: AppStoreEnvironment, originalTransactionIDs: [String]) async throws -> [TransactionFinish] {
        try await client.query(
            PostgresQuery(
                """
                SELECT \(unescaped: Self.columns) FROM transaction_finishes
                WHERE environment = \(environment.rawValue) AND original_transaction_id = ANY(\(originalTransactionIDs)::text[])
                ORDER BY transaction_id
                """
            ).prepared()
        ).map(Self.finish)
    }

    private static let columns: StaticString = """
        environment, transaction_id, bundle_id, original_transaction_id, state, attempts, next_attempt_at, last_error,
        delivered_by, finished_at
        """

    private static func finish(_ row: PostgresRow) throws -> TransactionFinish {
        let stateText: String = try row.decode("state")
        guard let state = TransactionFinish.State(rawValue: stateText) else {
            throw StoreError("transaction_finishes.state holds '\(stateText)'")
        }
        return TransactionFinish(
            environment: try AppStoreEnvironment(row: row, column: "environment"), transactionID: try row.decode("transaction_id"),
            bundleID: try row.decode("bundle_id"), originalTransactionID: try row.decode("original_transaction_id"), state: state,
            attempts: try row.decode("attempts"), nextAttemptAt: try row.decode("next_attempt_at"), lastError: try row.decode("last_error"),
            deliveredBy: try row.decode("delivered_by"), finishedAt: try row.decode("finished_at"))
    }
}
