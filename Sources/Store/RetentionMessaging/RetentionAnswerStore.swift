import AppStore
import Foundation
import Postgres

/// `retention_answers`: what the Get Retention Message endpoint answered, written in batches
/// after the answers went out (and deleted after `RETENTION_DAYS` by `ReceiptRetention`).
public struct RetentionAnswerStore: Sendable {
    private let client: PostgresClient

    /// Creates the store.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Stores `records` in one statement; a request already recorded (the App Store asked
    /// again with the same `requestIdentifier`) keeps its first row.
    public func record(_ records: [RetentionAnswerRecord]) async throws {
        guard !records.isEmpty else { return }
        try await client.execute(
            PostgresQuery(
                """
                INSERT INTO retention_answers (
                    request_identifier, answered_at, environment, bundle_id, original_transaction_id, product_id, user_locale,
                    answer, reason, rule_index, message_identifier, offered_product_id, offer_id)
                SELECT * FROM unnest(
                    \(PostgresTextArray(records.map(\.requestIdentifier)))::text[],
                    \(PostgresTextArray(encoding: records.map(\.answeredAt)))::timestamptz[],
                    \(PostgresTextArray(records.map(\.environment.rawValue)))::text[],
                    \(PostgresTextArray(records.map(\.bundleID)))::text[],
                    \(PostgresTextArray(records.map(\.originalTransactionID)))::text[],
                    \(PostgresTextArray(records.map(\.productID)))::text[],
                    \(PostgresTextArray(records.map(\.userLocale)))::text[],
                    \(PostgresTextArray(records.map(\.answer.rawValue)))::text[],
                    \(PostgresTextArray(records.map(\.reason.rawValue)))::text[],
                    \(PostgresTextArray(encoding: records.map(\.ruleIndex)))::integer[],
                    \(PostgresTextArray(records.map { $0.messageIdentifier?.uuidString.lowercased() }))::uuid[],
                    \(PostgresTextArray(records.map(\.offeredProductID)))::text[],
                    \(PostgresTextArray(records.map(\.offerID)))::text[])
                ON CONFLICT (request_identifier) DO NOTHING
                """
            ).prepared())
    }
}
