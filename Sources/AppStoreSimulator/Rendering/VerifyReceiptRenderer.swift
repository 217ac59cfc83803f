import Foundation

/// Writes verifyReceipt answers in Apple's layout.
enum VerifyReceiptRenderer {
    /// A status-0 answer for `customer` as of `now`.
    static func answer(
        customer: SimCustomer,
        app: SimApp,
        state: CustomerState,
        now: Date,
        latestReceipt: String,
        excludeOld: Bool
    ) -> JSONValue {
        .object([
            ("status", .int(0)),
            ("environment", .string(customer.environment.rawValue)),
            ("receipt", receipt(customer: customer, app: app, state: state, now: now)),
            ("latest_receipt_info", ReceiptRenderer.latestReceiptInfo(state, excludeOld: excludeOld)),
            ("latest_receipt", .string(latestReceipt)),
            ("pending_renewal_info", ReceiptRenderer.pendingRenewalInfo(state)),
        ])
    }

    /// An answer carrying only a status, as Apple sends for errors.
    static func status(_ code: Int, retryable: Bool? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("status", .int(code))]
        if let retryable {
            members.append(("is-retryable", .bool(retryable)))
        }
        return .object(members)
    }

    /// The decoded app receipt: app facts plus every purchase, oldest first.
    private static func receipt(customer: SimCustomer, app: SimApp, state: CustomerState, now: Date) -> JSONValue {
        let purchases = state.transactions.sorted { $0.purchaseDate < $1.purchaseDate }
        let created = purchases.last?.purchaseDate ?? customer.installDate
        var members: [(String, JSONValue)] = [
            ("receipt_type", .string(customer.environment.receiptType)),
            ("adam_id", .int(0)),
            ("app_item_id", .int(0)),
            ("bundle_id", .string(customer.bundleID)),
            ("application_version", .string(app.bundleVersion)),
            ("download_id", .int(0)),
            ("version_external_identifier", .int(0)),
        ]
        members += AppleDate.members("receipt_creation_date", created)
        members += AppleDate.members("request_date", now)
        members += AppleDate.members("original_purchase_date", customer.installDate)
        members += [
            ("original_application_version", .string("1.0")),
            ("in_app", .array(purchases.map(ReceiptRenderer.transaction))),
        ]
        return .object(members)
    }
}
