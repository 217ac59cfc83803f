import Foundation

/// Builds v1 notification bodies for tests.
enum NotificationBodies {
    /// A minimal, well-formed v1 body for the test app.
    static func v1(
        type: String = "INITIAL_BUY",
        password: String = RunningService.sharedSecret,
        bundleID: String = RunningService.bundleID,
        environment: String = "PROD",
        originalTransactionID: String = "1000000000000001",
        transactionID: String = "1000000000000001",
        purchase: Date = Date().addingTimeInterval(-3600),
        expires: Date = Date().addingTimeInterval(30 * 86_400),
        receipt: String? = "cmVjZWlwdC1kYXRh",
        extra: [String: Any] = [:]
    ) -> [String: Any] {
        var transaction: [String: Any] = [
            "transaction_id": transactionID, "original_transaction_id": originalTransactionID,
            "product_id": "com.example.pro.monthly", "quantity": "1",
            "purchase_date_ms": ms(purchase), "original_purchase_date_ms": ms(purchase), "expires_date_ms": ms(expires),
            "is_trial_period": "false", "is_in_intro_offer_period": "false", "subscription_group_identifier": "20500000",
            "web_order_line_item_id": "2000000000000001", "in_app_ownership_type": "PURCHASED",
        ]
        transaction.merge(extra["transaction"] as? [String: Any] ?? [:]) { _, new in new }
        var unified: [String: Any] = [
            "environment": environment == "PROD" ? "Production" : environment, "status": 0,
            "latest_receipt_info": [transaction],
            "pending_renewal_info": [
                [
                    "original_transaction_id": originalTransactionID, "product_id": "com.example.pro.monthly",
                    "auto_renew_product_id": "com.example.pro.monthly", "auto_renew_status": "1",
                ]
            ],
        ]
        if let receipt { unified["latest_receipt"] = receipt }
        var body: [String: Any] = [
            "notification_type": type, "password": password, "environment": environment, "bid": bundleID, "bvrs": "1",
            "auto_renew_status": "true", "auto_renew_product_id": "com.example.pro.monthly", "unified_receipt": unified,
        ]
        for (key, value) in extra where key != "transaction" { body[key] = value }
        return body
    }

    /// A DID_RENEW body whose receipt names its own subscription (see
    /// `ScriptedVerifyServer.answerOneActivePeriodPerReceipt`).
    static func renewal(originalTransactionID id: String) -> [UInt8] {
        bytes(v1(type: "DID_RENEW", originalTransactionID: id, transactionID: id, receipt: Data(id.utf8).base64EncodedString()))
    }

    /// JSON bytes of a body.
    static func bytes(_ object: Any) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }

    /// Milliseconds since 1970 as Apple's string.
    static func ms(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }

    /// A verifyReceipt answer echoing a notification's unified_receipt (status 0).
    static func verifyAnswer(echoing body: [String: Any]) -> [String: Any] {
        var answer = body["unified_receipt"] as? [String: Any] ?? [:]
        answer["status"] = 0
        return answer
    }
}
