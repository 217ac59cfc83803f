import Foundation

/// Writes verifyReceipt answers in Apple's layout.
enum VerifyReceiptRenderer {
    /// A status-0 answer for `customer` as of `now`. Like Apple's, `latest_receipt_info`,
    /// `latest_receipt` and `pending_renewal_info` come only with receipts that hold an
    /// auto-renewable subscription; other purchases are always in `receipt.in_app`.
    static func answer(
        customer: SimCustomer,
        app: SimApp,
        state: CustomerState,
        now: Date,
        latestReceipt: String,
        excludeOld: Bool
    ) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("status", .int(0)),
            ("environment", .string(customer.environment.rawValue)),
            ("receipt", receipt(customer: customer, app: app, state: state, now: now)),
        ]
        if !state.subscriptions.isEmpty {
            members += [
                ("latest_receipt_info", ReceiptRenderer.latestReceiptInfo(state, excludeOld: excludeOld)),
                ("latest_receipt", .string(latestReceipt)),
                ("pending_renewal_info", ReceiptRenderer.pendingRenewalInfo(state)),
            ]
        }
        return .object(members)
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
        let dates = state.transactions.map(\.purchaseDate) + state.purchases.map(\.purchaseDate)
        let created = dates.max() ?? customer.installDate
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
            ("original_application_version", .string(customer.originalApplicationVersion)),
            ("in_app", .array(ReceiptRenderer.entries(periods: state.transactions, purchases: state.purchases))),
        ]
        return .object(members)
    }
}
