import Foundation

/// Writes transactions and renewal info in Apple's exact verifyReceipt formats: ids and
/// `_ms` dates as strings, `"true"`/`"false"` flags, `"1"`/`"0"` renewal flags, `_pst` twins.
enum ReceiptRenderer {
    /// One `latest_receipt_info` / `in_app` entry.
    static func transaction(_ t: SimTransaction) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("quantity", .string("1")),
            ("product_id", .string(t.productID)),
            ("transaction_id", .string(t.transactionID)),
            ("original_transaction_id", .string(t.originalTransactionID)),
        ]
        members += AppleDate.members("purchase_date", t.purchaseDate)
        members += AppleDate.members("original_purchase_date", t.originalPurchaseDate)
        members += AppleDate.members("expires_date", t.expiresDate)
        members += [
            ("web_order_line_item_id", .string(t.webOrderLineItemID)),
            ("is_trial_period", .string(t.isTrialPeriod ? "true" : "false")),
            ("is_in_intro_offer_period", .string(t.isInIntroOfferPeriod ? "true" : "false")),
        ]
        switch t.offer?.kind {
        case .promotional?: members.append(("promotional_offer_id", .string(t.offer?.identifier ?? "")))
        case .offerCode?: members.append(("offer_code_ref_name", .string(t.offer?.identifier ?? "")))
        case nil: break
        }
        if let cancelled = t.cancellationDate {
            members += AppleDate.members("cancellation_date", cancelled)
        }
        if let reason = t.cancellationReason {
            members.append(("cancellation_reason", .string(reason)))
        }
        if t.isUpgraded {
            members.append(("is_upgraded", .string("true")))
        }
        members += [
            ("in_app_ownership_type", .string(t.ownershipType)),
            ("subscription_group_identifier", .string(t.groupID)),
        ]
        return .object(members)
    }

    /// One `in_app` / `latest_receipt_info` entry of a consumable, non-consumable or
    /// non-renewing purchase: no `expires_date`, no subscription fields.
    static func purchase(_ p: SimPurchase) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("quantity", .string(String(p.quantity))),
            ("product_id", .string(p.productID)),
            ("transaction_id", .string(p.transactionID)),
            ("original_transaction_id", .string(p.transactionID)),
        ]
        members += AppleDate.members("purchase_date", p.purchaseDate)
        members += AppleDate.members("original_purchase_date", p.purchaseDate)
        members.append(("is_trial_period", .string("false")))
        if let cancelled = p.cancellationDate {
            members += AppleDate.members("cancellation_date", cancelled)
        }
        if let reason = p.cancellationReason {
            members.append(("cancellation_reason", .string(reason)))
        }
        members.append(("in_app_ownership_type", .string("PURCHASED")))
        return .object(members)
    }

    /// One `pending_renewal_info` entry. `expiration_intent` and `is_in_billing_retry_period`
    /// appear once the period has ended, the grace date only while Apple retries inside it.
    static func renewal(_ r: SimRenewalInfo) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("auto_renew_product_id", .string(r.autoRenewProductID)),
            ("product_id", .string(r.productID)),
            ("original_transaction_id", .string(r.originalTransactionID)),
            ("auto_renew_status", .string(r.autoRenewStatus ? "1" : "0")),
        ]
        if let intent = r.expirationIntent {
            members.append(("expiration_intent", .string(String(intent.rawValue))))
        }
        if r.expirationIntent != nil || r.isInBillingRetryPeriod {
            members.append(("is_in_billing_retry_period", .string(r.isInBillingRetryPeriod ? "1" : "0")))
        }
        if let graceEnd = r.gracePeriodExpiresDate, r.isInBillingRetryPeriod {
            members += AppleDate.members("grace_period_expires_date", graceEnd)
        }
        return .object(members)
    }

    /// Every purchase (subscription periods and one-time purchases), newest first; with
    /// `excludeOld`, only each subscription's newest period (one-time purchases all stay).
    static func latestReceiptInfo(_ state: CustomerState, excludeOld: Bool = false) -> JSONValue {
        let periods = excludeOld ? state.subscriptions.map(\.latest) : state.transactions
        return .array(entries(periods: periods, purchases: state.purchases).reversed())
    }

    /// One entry per subscription.
    static func pendingRenewalInfo(_ state: CustomerState) -> JSONValue {
        .array(state.subscriptions.map { renewal($0.renewal) })
    }

    /// A v1 notification's `unified_receipt`.
    static func unifiedReceipt(_ state: CustomerState, environment: SimEnvironment, latestReceipt: String) -> JSONValue {
        .object([
            ("environment", .string(environment.rawValue)),
            ("latest_receipt", .string(latestReceipt)),
            ("latest_receipt_info", latestReceiptInfo(state)),
            ("pending_renewal_info", pendingRenewalInfo(state)),
            ("status", .int(0)),
        ])
    }

    /// The entries of `periods` and `purchases`, oldest first; ties by transaction id.
    static func entries(periods: [SimTransaction], purchases: [SimPurchase]) -> [JSONValue] {
        let all =
            periods.map { ($0.purchaseDate, $0.transactionID, transaction($0)) }
            + purchases.map { ($0.purchaseDate, $0.transactionID, purchase($0)) }
        return all.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }
}
