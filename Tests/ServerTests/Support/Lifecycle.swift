import Foundation

/// A scripted customer history in Apple's v1 format: transactions and renewal info
/// change step by step, and each step yields the notification Apple would send then.
/// `verifyAnswer` is what verifyReceipt says once everything happened (Apple always
/// answers with the latest state, whichever receipt it is given).
struct Lifecycle {
    let originalTransactionID: String
    let environment: String
    var transactions: [[String: Any]] = []
    var renewal: [String: Any]
    private(set) var notifications: [[String: Any]] = []
    private var nextTransaction: Int

    init(originalTransactionID: String, environment: String = "PROD", product: String = "com.example.pro.monthly") {
        self.originalTransactionID = originalTransactionID
        self.environment = environment
        self.nextTransaction = Int(originalTransactionID)!
        self.renewal = [
            "original_transaction_id": originalTransactionID, "product_id": product,
            "auto_renew_product_id": product, "auto_renew_status": "1", "is_in_billing_retry_period": "0",
        ]
    }

    /// Adds a purchased period and returns its index.
    @discardableResult
    mutating func purchase(
        _ product: String = "com.example.pro.monthly", from start: Date, days: Double,
        trial: Bool = false, intro: Bool = false
    ) -> Int {
        let id = String(nextTransaction)
        nextTransaction += 1
        transactions.append([
            "transaction_id": id, "original_transaction_id": originalTransactionID, "product_id": product, "quantity": "1",
            "purchase_date_ms": NotificationBodies.ms(start), "original_purchase_date_ms": NotificationBodies.ms(start),
            "expires_date_ms": NotificationBodies.ms(start.addingTimeInterval(days * 86_400)),
            "is_trial_period": trial ? "true" : "false", "is_in_intro_offer_period": intro ? "true" : "false",
            "subscription_group_identifier": "20500000", "web_order_line_item_id": "9\(id)",
            "in_app_ownership_type": "PURCHASED",
        ])
        renewal["product_id"] = product
        return transactions.count - 1
    }

    /// Records the notification Apple sends now, with the state so far.
    mutating func notify(_ type: String, at time: Date, extra: [String: Any] = [:]) {
        var body: [String: Any] = [
            "notification_type": type, "password": RunningService.sharedSecret, "environment": environment,
            "bid": RunningService.bundleID, "bvrs": "1",
            "auto_renew_status": (renewal["auto_renew_status"] as? String) == "1" ? "true" : "false",
            "auto_renew_product_id": renewal["auto_renew_product_id"] ?? "",
            "auto_renew_status_change_date_ms": NotificationBodies.ms(time),
            "unified_receipt": [
                "environment": environment == "PROD" ? "Production" : environment, "status": 0,
                "latest_receipt": receiptToken,
                "latest_receipt_info": Array(transactions.reversed()),
                "pending_renewal_info": [renewal],
            ] as [String: Any],
        ]
        body.merge(extra) { _, new in new }
        notifications.append(body)
    }

    /// The base64 "receipt" this customer's notifications carry.
    var receiptToken: String { Data("receipt-\(originalTransactionID)".utf8).base64EncodedString() }

    /// verifyReceipt's answer with everything that happened.
    var verifyAnswer: [String: Any] {
        [
            "status": 0, "environment": environment == "PROD" ? "Production" : environment,
            "receipt": ["bundle_id": RunningService.bundleID, "in_app": []] as [String: Any],
            "latest_receipt": receiptToken,
            "latest_receipt_info": Array(transactions.reversed()),
            "pending_renewal_info": [renewal],
        ]
    }

    /// Every notification without its receipt: processing must rely on the bodies alone.
    var notificationsWithoutReceipt: [[String: Any]] {
        notifications.map { body in
            var body = body
            var unified = body["unified_receipt"] as? [String: Any] ?? [:]
            unified.removeValue(forKey: "latest_receipt")
            body["unified_receipt"] = unified
            return body
        }
    }
}

/// Days relative to now.
func daysAgo(_ days: Double) -> Date { Date().addingTimeInterval(-days * 86_400) }
