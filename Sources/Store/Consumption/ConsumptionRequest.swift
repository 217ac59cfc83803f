import AppStore
import Foundation
import Postgres

/// One CONSUMPTION_REQUEST and what became of it (`consumption_requests`).
public struct ConsumptionRequest: Sendable, Hashable {
    /// Where it stands (the table's `state`).
    public enum State: String, Sendable, CaseIterable {
        case pending, sent, failed
        case noConsent = "no_consent"
        case expired
    }

    public let id: Int64
    public let notificationUUID: String
    public let environment: AppStoreEnvironment
    public let bundleID: String
    public let transactionID: String
    public let originalTransactionID: String
    public let productID: String?
    public let autoRenewable: Bool
    /// Apple's `consumptionRequestReason` (`UNINTENDED_PURCHASE`, …).
    public let reason: String?
    public let requestedAt: Date
    /// 12 hours after the request: no answer is sent after it.
    public let deadline: Date
    public let state: State
    public let attempts: Int
    public let lastError: String?
    /// The JSON sent, once sent.
    public let body: String?
    public let sentAt: Date?
    /// `REFUND` or `REFUND_DECLINED`: what Apple decided afterwards.
    public let outcome: String?
    public let outcomeAt: Date?

    static let columns: StaticString = """
        id, notification_uuid, environment, bundle_id, transaction_id, original_transaction_id, product_id, auto_renewable,
        reason, requested_at, deadline, state, attempts, last_error, body, sent_at, outcome, outcome_at
        """

    init(row: PostgresRow) throws {
        let stateText: String = try row.decode("state")
        guard let state = State(rawValue: stateText) else { throw StoreError("consumption request state \(stateText) is unknown") }
        id = try row.decode("id")
        notificationUUID = try row.decode("notification_uuid")
        environment = try AppStoreEnvironment(row: row, column: "environment")
        bundleID = try row.decode("bundle_id")
        transactionID = try row.decode("transaction_id")
        originalTransactionID = try row.decode("original_transaction_id")
        productID = try row.decode("product_id")
        autoRenewable = try row.decode("auto_renewable")
        reason = try row.decode("reason")
        requestedAt = try row.decode("requested_at")
        deadline = try row.decode("deadline")
        self.state = state
        let attempts: Int32 = try row.decode("attempts")
        self.attempts = Int(attempts)
        lastError = try row.decode("last_error")
        body = try row.decode("body")
        sentAt = try row.decode("sent_at")
        outcome = try row.decode("outcome")
        outcomeAt = try row.decode("outcome_at")
    }
}

/// A CONSUMPTION_REQUEST as the worker records it, before it has an id.
public struct NewConsumptionRequest: Sendable, Hashable {
    public let notificationUUID: String
    public let environment: AppStoreEnvironment
    public let bundleID: String
    public let transactionID: String
    public let originalTransactionID: String
    public let productID: String?
    public let autoRenewable: Bool
    public let reason: String?
    public let requestedAt: Date

    /// How long Apple waits for the answer.
    public static let answerWindow: TimeInterval = 12 * 3_600

    public init(
        notificationUUID: String, environment: AppStoreEnvironment, bundleID: String, transactionID: String, originalTransactionID: String,
        productID: String?, autoRenewable: Bool, reason: String?, requestedAt: Date
    ) {
        self.notificationUUID = notificationUUID
        self.environment = environment
        self.bundleID = bundleID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.autoRenewable = autoRenewable
        self.reason = reason
        self.requestedAt = requestedAt
    }
}

/// A claimed pending request, and whether any user of its purchase has consented.
public struct ClaimedConsumptionRequest: Sendable, Hashable {
    public let request: ConsumptionRequest
    public let consented: Bool
    /// What the app's backend reported of the purchase, if it did.
    public let reported: ReportedConsumption?
}

/// What the app's backend knows of one purchase (`PUT /v1/purchases/{id}/consumption`).
public struct ReportedConsumption: Sendable, Hashable {
    /// How much was consumed, in milliunits of a percent (0 to 100000); nil: not said.
    public let percentageMilliunits: Int?
    /// Apple's `deliveryStatus` value; nil: not said.
    public let deliveryStatus: String?

    public init(percentageMilliunits: Int?, deliveryStatus: String?) {
        self.percentageMilliunits = percentageMilliunits
        self.deliveryStatus = deliveryStatus
    }
}
