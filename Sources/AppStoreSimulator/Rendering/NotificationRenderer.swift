import Foundation

/// Writes v1 notification bodies exactly like Apple's (APPSTORE.md, "version 1").
enum NotificationRenderer {
    /// The body for `event` of a customer of `app`; `receipt` becomes `latest_receipt`. The
    /// renewal fields describe the event's subscription; a `REFUND` of a one-time purchase has none.
    static func body(
        _ event: LifecycleEvent,
        type: NotificationType,
        app: SimApp,
        environment: SimEnvironment,
        receipt: String
    ) -> [UInt8] {
        var members: [(String, JSONValue)] = [
            ("notification_type", .string(type.rawValue)),
            ("password", .string(app.sharedSecret)),
            ("environment", .string(environment.notificationValue)),
            ("bid", .string(app.bundleID)),
            ("bvrs", .string(app.bundleVersion)),
        ]
        if event.purchaseID == nil, let renewal = event.state.subscription(inGroup: event.groupID)?.renewal {
            members += [
                ("auto_renew_status", .string(renewal.autoRenewStatus ? "true" : "false")),
                ("auto_renew_product_id", .string(renewal.autoRenewProductID)),
            ]
            members += AppleDate.members("auto_renew_status_change_date", renewal.autoRenewStatusChangeDate)
            if let intent = renewal.expirationIntent {
                // Apple documents the top-level field as an integer, unlike the receipt's string.
                members.append(("expiration_intent", .int(intent.rawValue)))
            }
        }
        members.append(
            (
                "unified_receipt",
                ReceiptRenderer.unifiedReceipt(event.state, environment: environment, latestReceipt: receipt)
            ))
        return JSONValue.object(members).bytes()
    }
}
