import AppStore
import Foundation
import Postgres

/// `retention_answers`: what the Get Retention Message endpoint answered, written in batches
/// after the answers went out, and read back per subscription.
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

    /// The newest `limit` answers given for the subscription `originalTransactionID`, newest first.
    public func answers(environment: String, originalTransactionID: String, limit: Int = 50) async throws -> [RetentionAnswerRecord] {
        let rows = try await client.query(
            PostgresQuery(
                """
                SELECT request_identifier, answered_at, environment, bundle_id, original_transaction_id, product_id, user_locale,
                       answer, reason, rule_index, message_identifier::text AS message_identifier, offered_product_id, offer_id
                FROM retention_answers
                WHERE environment = \(environment) AND original_transaction_id = \(originalTransactionID)
                ORDER BY answered_at DESC LIMIT \(Int64(max(1, min(limit, 1000))))
                """
            ).prepared())
        return try rows.map { row in
            RetentionAnswerRecord(
                requestIdentifier: try row.decode("request_identifier"), answeredAt: try row.decode("answered_at"),
                environment: try AppStoreEnvironment(row: row, column: "environment"), bundleID: try row.decode("bundle_id"),
                originalTransactionID: try row.decode("original_transaction_id"), productID: try row.decode("product_id"),
                userLocale: try row.decode("user_locale"),
                answer: try Self.decoded(row, "answer", as: RetentionAnswerRecord.Answer.self),
                reason: try Self.decoded(row, "reason", as: RetentionAnswerRecord.Reason.self),
                ruleIndex: try row.decode("rule_index", as: Int?.self),
                messageIdentifier: try row.decode("message_identifier", as: String?.self).flatMap(UUID.init(uuidString:)),
                offeredProductID: try row.decode("offered_product_id"), offerID: try row.decode("offer_id"))
        }
    }

    private static func decoded<Value: RawRepresentable>(
        _ row: PostgresRow, _ column: String, as type: Value.Type
    ) throws -> Value where Value.RawValue == String {
        let text: String = try row.decode(column)
        guard let value = Value(rawValue: text) else { throw StoreError("retention_answers.\(column) holds '\(text)'") }
        return value
    }
}
