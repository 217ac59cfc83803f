import Foundation
import Postgres

/// Removes receipts from notification bodies processed before a cut-off, keeping the rest
/// of each row (type, subscription, outcome, attempts) for audit and replay of status.
///
/// Removed: `latest_receipt`, `latest_expired_receipt`, `unified_receipt.latest_receipt`
/// (v1 bodies) and `receipt_data` (queued receipts); v2 `signedPayload` only when asked
/// (it is Apple's evidence). Stripped rows get `receipt_removed_at`, so a replay can say why
/// its receipt is gone. What the Get Retention Message endpoint answered before the cut-off
/// (`retention_answers`) is deleted by the same run. Each run is recorded in `retention_runs`.
public struct ReceiptRetention: Sendable {
    private let client: PostgresClient

    /// Creates the job's repository.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Strips every eligible notification processed before `cutoff`, in batches of
    /// `batchSize` (short transactions next to the worker), and records the run.
    @discardableResult
    public func run(cutoff: Date, dropSigned: Bool, batchSize: Int = 1_000) async throws -> RetentionRun {
        var receipts = 0
        var signed = 0
        while true {
            let batch = try await stripBatch(cutoff: cutoff, dropSigned: dropSigned, limit: max(1, batchSize))
            receipts += batch.receipts
            signed += batch.signed
            if batch.rows < max(1, batchSize) { break }
        }
        while try await deleteRetentionAnswers(before: cutoff, limit: max(1, batchSize)) >= max(1, batchSize) {}
        let row = try await client.query(
            """
            INSERT INTO retention_runs (cutoff, receipts_removed, signed_removed, drop_signed)
            VALUES (\(cutoff), \(receipts), \(signed), \(dropSigned))
            RETURNING ran_at, cutoff, receipts_removed, signed_removed, drop_signed
            """
        ).first
        guard let row else { throw StoreError("retention run was not recorded") }
        return try RetentionRun(row: row)
    }

    /// Deletes up to `limit` retention answers given before `cutoff`; how many.
    private func deleteRetentionAnswers(before cutoff: Date, limit: Int) async throws -> Int {
        try await client.execute(
            """
            DELETE FROM retention_answers WHERE request_identifier IN (
                SELECT request_identifier FROM retention_answers WHERE answered_at < \(cutoff) ORDER BY answered_at LIMIT \(limit)
            )
            """
        )
    }

    private func stripBatch(cutoff: Date, dropSigned: Bool, limit: Int) async throws -> (rows: Int, receipts: Int, signed: Int) {
        let rows = try await client.query(
            """
            WITH candidates AS (
                SELECT id,
                       (body ?| array['latest_receipt', 'latest_expired_receipt', 'receipt_data']
                        OR body #> '{unified_receipt,latest_receipt}' IS NOT NULL) AS has_receipt,
                       (\(dropSigned) AND body ? 'signedPayload') AS has_signed
                FROM notifications
                WHERE state = 'processed' AND processed_at < \(cutoff)
                  AND (body ?| array['latest_receipt', 'latest_expired_receipt', 'receipt_data']
                       OR body #> '{unified_receipt,latest_receipt}' IS NOT NULL
                       OR (\(dropSigned) AND body ? 'signedPayload'))
                ORDER BY id
                LIMIT \(limit)
                FOR UPDATE SKIP LOCKED
            )
            UPDATE notifications AS n
            SET body = CASE WHEN c.has_signed THEN n.body - 'signedPayload'::text ELSE n.body END
                       - 'latest_receipt'::text - 'latest_expired_receipt'::text - 'receipt_data'::text
                       #- '{unified_receipt,latest_receipt}'::text[],
                receipt_removed_at = now(), updated_at = now()
            FROM candidates AS c
            WHERE n.id = c.id
            RETURNING c.has_receipt, c.has_signed
            """)
        var receipts = 0
        var signed = 0
        for row in rows {
            if try row.decode("has_receipt", as: Bool.self) { receipts += 1 }
            if try row.decode("has_signed", as: Bool.self) { signed += 1 }
        }
        return (rows.count, receipts, signed)
    }
}
