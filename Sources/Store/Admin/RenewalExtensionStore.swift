import AppStore
import Foundation
import Postgres

/// What a renewal-date extension extends: one subscription, or every active subscriber of a
/// product (in some storefronts, or all).
public enum RenewalExtensionTarget: Sendable, Hashable {
    case subscription(originalTransactionID: String)
    case product(productID: String, storefronts: [String]?)
}

/// One stored renewal-date extension request (`renewal_extensions`).
public struct RenewalExtension: Sendable, Hashable {
    /// Where a request is.
    public enum State: String, Sendable {
        case pending, accepted, complete, failed
    }

    public let requestIdentifier: UUID
    public let bundleID: String
    /// The environment Apple answered from (or the one asked, for a mass request).
    public let environment: AppStoreEnvironment?
    public let target: RenewalExtensionTarget
    public let days: Int
    public let reasonCode: Int
    public let state: State
    /// The subscription's new expiry (one subscription).
    public let effectiveDate: Date?
    /// Subscribers extended and not (a mass request, once Apple says).
    public let succeededCount: Int?
    public let failedCount: Int?
    /// Why Apple refused it, or why the last try failed.
    public let lastError: String?
    public let createdAt: Date
}

/// `renewal_extensions`: each extension is stored before it is sent, so an interrupted
/// `subscriptionctl extend` resumes with the same request identifier.
public struct RenewalExtensionStore: Sendable {
    private let client: PostgresClient

    /// Creates the store.
    public init(client: PostgresClient) {
        self.client = client
    }

    private static let columns: StaticString = """
        request_identifier::text AS request_identifier, bundle_id, environment, original_transaction_id, product_id,
        array_to_string(storefronts, ',') AS storefronts, extend_by_days, reason_code, state, effective_date, succeeded_count,
        failed_count, last_error, created_at
        """

    /// The request to send: the one named `requestIdentifier` when given (it must ask for the
    /// same extension), else an unfinished one asking for the same extension, else a new one.
    /// `resumed` says an existing request was picked up.
    public func open(
        bundleID: String, environment: AppStoreEnvironment?, target: RenewalExtensionTarget, days: Int, reasonCode: Int,
        requestIdentifier: UUID?
    ) async throws -> (request: RenewalExtension, resumed: Bool) {
        let (original, product, storefronts) = Self.columns(of: target)
        return try await client.withTransaction { session in
            // One opener at a time per app, so two commands cannot both miss and insert.
            try session.execute(PostgresQuery("SELECT pg_advisory_xact_lock(hashtextextended(\("extend|" + bundleID), 0))").prepared())
            if let requestIdentifier {
                if let row = try session.queryFirst(
                    "SELECT \(unescaped: Self.columns) FROM renewal_extensions WHERE request_identifier = \(requestIdentifier.uuidString)::uuid"
                ) {
                    let stored = try RenewalExtension(row: row)
                    guard stored.bundleID == bundleID, stored.target == target, stored.days == days, stored.reasonCode == reasonCode
                    else {
                        throw StoreError("request \(requestIdentifier.uuidString.lowercased()) was made for another extension")
                    }
                    return (stored, true)
                }
            } else if let row = try session.queryFirst(
                """
                SELECT \(unescaped: Self.columns) FROM renewal_extensions
                WHERE bundle_id = \(bundleID) AND state IN ('pending', 'accepted')
                  AND original_transaction_id IS NOT DISTINCT FROM \(original) AND product_id IS NOT DISTINCT FROM \(product)
                  AND storefronts IS NOT DISTINCT FROM \(storefronts)::text[]
                  AND (\(product)::text IS NULL OR environment = \(environment?.rawValue))
                  AND extend_by_days = \(days) AND reason_code = \(reasonCode)
                ORDER BY created_at DESC LIMIT 1
                """)
            {
                return (try RenewalExtension(row: row), true)
            }
            let identifier = requestIdentifier ?? UUID()
            let row = try session.queryFirst(
                """
                INSERT INTO renewal_extensions (
                    request_identifier, bundle_id, environment, original_transaction_id, product_id, storefronts, extend_by_days, reason_code)
                VALUES (\(identifier.uuidString)::uuid, \(bundleID), \(product == nil ? nil : environment?.rawValue), \(original),
                    \(product), \(storefronts)::text[], \(days), \(reasonCode))
                RETURNING \(unescaped: Self.columns)
                """)
            guard let row else { throw StoreError("renewal extension was not stored") }
            return (try RenewalExtension(row: row), false)
        }
    }

    /// The request `identifier`, if stored.
    public func request(_ identifier: UUID) async throws -> RenewalExtension? {
        try await client.query(
            "SELECT \(unescaped: Self.columns) FROM renewal_extensions WHERE request_identifier = \(identifier.uuidString)::uuid"
        ).first.map(RenewalExtension.init(row:))
    }

    /// Apple took the mass request `identifier`.
    public func markAccepted(_ identifier: UUID) async throws {
        try await client.execute(
            """
            UPDATE renewal_extensions SET state = 'accepted', accepted_at = now(), last_error = NULL
            WHERE request_identifier = \(identifier.uuidString)::uuid AND state = 'pending'
            """)
    }

    /// Apple extended the subscription (`effectiveDate`) or finished the mass request (the counts).
    public func markComplete(
        _ identifier: UUID, environment: AppStoreEnvironment?, effectiveDate: Date?, succeededCount: Int?, failedCount: Int?
    ) async throws {
        try await client.execute(
            """
            UPDATE renewal_extensions SET state = 'complete', completed_at = now(), last_error = NULL,
                environment = coalesce(environment, \(environment?.rawValue)), effective_date = \(effectiveDate),
                succeeded_count = coalesce(\(succeededCount), succeeded_count), failed_count = coalesce(\(failedCount), failed_count)
            WHERE request_identifier = \(identifier.uuidString)::uuid
            """)
    }

    /// Apple refused the request for good (`reason`), or a try failed and it stays open.
    public func recordFailure(_ identifier: UUID, reason: String, permanent: Bool) async throws {
        try await client.execute(
            """
            UPDATE renewal_extensions SET last_error = \(reason), state = CASE WHEN \(permanent) THEN 'failed' ELSE state END
            WHERE request_identifier = \(identifier.uuidString)::uuid AND state IN ('pending', 'accepted')
            """)
    }

    /// A RENEWAL_EXTENSION summary: Apple finished the mass request `requestIdentifier` of
    /// `bundleID` with these counts (written in the worker's transaction; nothing when the
    /// request was made elsewhere).
    public static func recordSummary(
        requestIdentifier: String, bundleID: String, succeededCount: Int?, failedCount: Int?, in session: PostgresSession
    ) throws {
        guard let identifier = UUID(uuidString: requestIdentifier) else { return }
        try session.execute(
            PostgresQuery(
                """
                UPDATE renewal_extensions SET state = 'complete', completed_at = coalesce(completed_at, now()), last_error = NULL,
                    succeeded_count = coalesce(\(succeededCount), succeeded_count), failed_count = coalesce(\(failedCount), failed_count)
                WHERE request_identifier = \(identifier.uuidString)::uuid AND bundle_id = \(bundleID) AND product_id IS NOT NULL
                """
            ).prepared())
    }

    private static func columns(of target: RenewalExtensionTarget) -> (String?, String?, PostgresTextArray?) {
        switch target {
        case .subscription(let original): (original, nil, nil)
        case .product(let product, let storefronts): (nil, product, storefronts.map { PostgresTextArray($0) })
        }
    }
}

extension RenewalExtension {
    init(row: PostgresRow) throws {
        let identifierText: String = try row.decode("request_identifier")
        guard let identifier = UUID(uuidString: identifierText) else { throw StoreError("stored request identifier is not a UUID") }
        requestIdentifier = identifier
        bundleID = try row.decode("bundle_id")
        environment = (try row.decode("environment", as: String?.self)).flatMap(AppStoreEnvironment.init(rawValue:))
        if let product: String = try row.decode("product_id") {
            let storefronts: String? = try row.decode("storefronts")
            target = .product(productID: product, storefronts: storefronts.map { $0.split(separator: ",").map(String.init) })
        } else {
            target = .subscription(originalTransactionID: try row.decode("original_transaction_id"))
        }
        days = try row.decode("extend_by_days")
        reasonCode = try row.decode("reason_code")
        guard let state = State(rawValue: try row.decode("state")) else { throw StoreError("unknown renewal extension state") }
        self.state = state
        effectiveDate = try row.decode("effective_date")
        succeededCount = try row.decode("succeeded_count")
        failedCount = try row.decode("failed_count")
        lastError = try row.decode("last_error")
        createdAt = try row.decode("created_at")
    }
}
