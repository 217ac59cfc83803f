import AppStore
import Foundation
import Postgres

/// `consumption_requests` and `consumption_consents`: CONSUMPTION_REQUESTs recorded by the
/// worker, claimed and settled by the consumption sender, listed by the CLI; and the app
/// users' consent to share consumption data.
public struct ConsumptionStore: Sendable {
    private let client: PostgresClient

    /// Creates the store.
    public init(client: PostgresClient) {
        self.client = client
    }

    // MARK: In the worker's transaction

    /// Records `request` (a redelivery or replay of the same notification records nothing).
    public static func record(_ request: NewConsumptionRequest, in session: PostgresSession) throws {
        let deadline = request.requestedAt.addingTimeInterval(NewConsumptionRequest.answerWindow)
        try session.execute(
            PostgresQuery(
                """
                INSERT INTO consumption_requests (
                    notification_uuid, environment, bundle_id, transaction_id, original_transaction_id, product_id, auto_renewable,
                    reason, requested_at, deadline)
                VALUES (\(request.notificationUUID), \(request.environment.rawValue), \(request.bundleID), \(request.transactionID),
                    \(request.originalTransactionID), \(request.productID), \(request.autoRenewable), \(request.reason),
                    \(request.requestedAt), \(deadline))
                ON CONFLICT (notification_uuid) DO NOTHING
                """
            ).prepared())
        // Apple's decision may have arrived first (deliveries come in any order).
        try session.execute(
            PostgresQuery(
                """
                UPDATE consumption_requests AS r SET outcome = d.outcome, outcome_at = d.decided_at
                FROM (
                    SELECT outcome, decided_at FROM refund_decisions
                    WHERE environment = \(request.environment.rawValue) AND transaction_id = \(request.transactionID)
                      AND decided_at >= \(request.requestedAt)
                    ORDER BY decided_at LIMIT 1
                ) AS d
                WHERE r.notification_uuid = \(request.notificationUUID) AND r.outcome IS NULL
                """
            ).prepared())
    }

    /// Records Apple's decision (`REFUND` or `REFUND_DECLINED` at `decidedAt`) and joins it to
    /// the requests for `transactionID` made before it that have none yet (a request recorded
    /// later finds it in `refund_decisions`).
    public static func recordOutcome(
        _ outcome: String, environment: AppStoreEnvironment, transactionID: String, decidedAt: Date, in session: PostgresSession
    ) throws {
        try session.execute(
            PostgresQuery(
                """
                INSERT INTO refund_decisions (environment, transaction_id, outcome, decided_at)
                VALUES (\(environment.rawValue), \(transactionID), \(outcome), \(decidedAt))
                ON CONFLICT DO NOTHING
                """
            ).prepared())
        try session.execute(
            PostgresQuery(
                """
                UPDATE consumption_requests SET outcome = \(outcome), outcome_at = \(decidedAt)
                WHERE environment = \(environment.rawValue) AND transaction_id = \(transactionID)
                  AND outcome IS NULL AND requested_at <= \(decidedAt)
                """
            ).prepared())
    }

    // MARK: The sender

    /// Claims up to `limit` pending requests that are due (or pending request `only`, due or
    /// not), pushing each one's next attempt `lease` ahead so that another sender leaves it
    /// alone; says for each whether an owner of its purchase has consented (the SQL function
    /// `purchase_owners`: the user its app account token binds, else the users linked to it in its app).
    public func claimDue(limit: Int, lease: Duration, only: Int64? = nil) async throws -> [ClaimedConsumptionRequest] {
        try await client.query(
            PostgresQuery(
                """
                UPDATE consumption_requests AS r
                SET next_attempt_at = now() + make_interval(secs => \(lease.intervalSeconds))
                FROM (
                    SELECT id AS due_id FROM consumption_requests
                    WHERE state = 'pending'
                      AND (\(only)::bigint IS NULL AND next_attempt_at <= now() OR id = \(only)::bigint)
                    ORDER BY next_attempt_at, id
                    LIMIT \(limit)
                    FOR UPDATE SKIP LOCKED
                ) AS due
                WHERE r.id = due.due_id
                RETURNING \(unescaped: ConsumptionRequest.columns),
                    EXISTS (
                        SELECT 1 FROM purchase_owners(r.environment, r.original_transaction_id, r.bundle_id) o
                        JOIN consumption_consents c ON c.app_user_id = o.app_user_id AND c.consented
                    ) AS consented,
                    (SELECT consumption_percentage FROM purchase_consumption p WHERE p.transaction_id = r.transaction_id)
                        AS reported_percentage,
                    (SELECT delivery_status FROM purchase_consumption p WHERE p.transaction_id = r.transaction_id)
                        AS reported_delivery_status
                """
            ).prepared()
        ).map { row in
            let percentage: Int? = try row.decode("reported_percentage")
            let delivery: String? = try row.decode("reported_delivery_status")
            return ClaimedConsumptionRequest(
                request: try ConsumptionRequest(row: row), consented: try row.decode("consented"),
                reported: percentage == nil && delivery == nil
                    ? nil : ReportedConsumption(percentageMilliunits: percentage, deliveryStatus: delivery))
        }
    }

    /// The apps of the stored transactions with that id (in any environment); empty when none is stored.
    public func transactionApps(_ transactionID: String) async throws -> [String] {
        try await client.query(
            PostgresQuery("SELECT DISTINCT bundle_id FROM transactions WHERE transaction_id = \(transactionID) ORDER BY 1").prepared()
        ).map { try $0.decode("bundle_id") }
    }

    /// Records what the app's backend knows of purchase `transactionID` (replacing an earlier
    /// report), with an audit row naming `actor`.
    public func report(transactionID: String, consumption: ReportedConsumption, actor: String) async throws {
        try await client.withTransaction { session in
            try session.execute(
                PostgresQuery(
                    """
                    INSERT INTO purchase_consumption (transaction_id, consumption_percentage, delivery_status, updated_by)
                    VALUES (\(transactionID), \(consumption.percentageMilliunits), \(consumption.deliveryStatus), \(actor))
                    ON CONFLICT (transaction_id) DO UPDATE SET
                        consumption_percentage = EXCLUDED.consumption_percentage, delivery_status = EXCLUDED.delivery_status,
                        updated_at = now(), updated_by = EXCLUDED.updated_by
                    """
                ).prepared())
            var detail = ["transaction_id": transactionID]
            if let percentage = consumption.percentageMilliunits { detail["consumption_percentage"] = "\(percentage)" }
            if let delivery = consumption.deliveryStatus { detail["delivery_status"] = delivery }
            try AuditLog.record(action: "consumption_reported", actor: actor, appUserID: nil, detail: detail, in: session)
        }
    }

    /// Apple accepted `body` for request `id`.
    public func markSent(id: Int64, body: String) async throws {
        try await settle(
            id: id,
            PostgresQuery(
                """
                UPDATE consumption_requests SET state = 'sent', body = \(body), sent_at = now(), attempts = attempts + 1,
                    last_error = NULL
                WHERE id = \(id) AND state = 'pending'
                """
            ))
    }

    /// Request `id` ends in `state` (`failed`, `no_consent`, `expired`) because of `reason`;
    /// `attempted` counts one more attempt.
    public func markFinal(id: Int64, state: ConsumptionRequest.State, reason: String, attempted: Bool) async throws {
        try await settle(
            id: id,
            PostgresQuery(
                """
                UPDATE consumption_requests SET state = \(state.rawValue), last_error = \(reason),
                    attempts = attempts + \(attempted ? 1 : 0)
                WHERE id = \(id) AND state = 'pending'
                """
            ))
    }

    /// Request `id` is tried again at `next` (never after its deadline: the sender settles it
    /// then); `attempted` counts one more attempt.
    public func scheduleRetry(id: Int64, at next: Date, reason: String?, attempted: Bool) async throws {
        try await settle(
            id: id,
            PostgresQuery(
                """
                UPDATE consumption_requests SET next_attempt_at = least(\(next), deadline), last_error = \(reason),
                    attempts = attempts + \(attempted ? 1 : 0)
                WHERE id = \(id) AND state = 'pending'
                """
            ))
    }

    private func settle(id: Int64, _ query: PostgresQuery) async throws {
        _ = try await client.execute(query.prepared())
    }

    // MARK: Reads

    /// The requests in `state` (nil: all), newest first, at most `limit`.
    public func list(state: ConsumptionRequest.State?, limit: Int) async throws -> [ConsumptionRequest] {
        try await client.query(
            PostgresQuery(
                """
                SELECT \(unescaped: ConsumptionRequest.columns) FROM consumption_requests
                WHERE \(state?.rawValue)::text IS NULL OR state = \(state?.rawValue)::text
                ORDER BY id DESC LIMIT \(limit)
                """
            ).prepared()
        ).map(ConsumptionRequest.init(row:))
    }

    /// Request `id`, or nil.
    public func request(id: Int64) async throws -> ConsumptionRequest? {
        try await client.query(
            PostgresQuery("SELECT \(unescaped: ConsumptionRequest.columns) FROM consumption_requests WHERE id = \(id)").prepared()
        ).first.map(ConsumptionRequest.init(row:))
    }

    // MARK: Consent

    /// Records whether `appUserID` consents to sharing consumption data; returns when. A
    /// consent makes the pending requests of the user's purchases due at once.
    public func setConsent(appUserID: String, consented: Bool, actor: String) async throws -> Date {
        try await client.withTransaction { session in
            guard
                let row = try session.queryFirst(
                    PostgresQuery(
                        """
                        INSERT INTO consumption_consents (app_user_id, consented) VALUES (\(appUserID), \(consented))
                        ON CONFLICT (app_user_id) DO UPDATE SET consented = EXCLUDED.consented, updated_at = now()
                        RETURNING updated_at
                        """
                    ).prepared())
            else { throw StoreError("INSERT … RETURNING gave no row") }
            try AuditLog.record(
                action: "consent_set", actor: actor, appUserID: appUserID, detail: ["consumption_data": consented ? "true" : "false"],
                in: session)
            if consented {
                try session.execute(
                    PostgresQuery(
                        """
                        UPDATE consumption_requests AS r SET next_attempt_at = now()
                        FROM subscribers s
                        WHERE s.app_user_id = \(appUserID) AND s.environment = r.environment
                          AND s.original_transaction_id = r.original_transaction_id AND r.state = 'pending'
                        """
                    ).prepared())
            }
            return try row.decode("updated_at")
        }
    }
}
