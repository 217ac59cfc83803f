import Foundation

/// Apple-shaped JSON payloads for signing in tests.
enum TestPayloads {
    static let bundleID = "com.example.app"

    static func ms(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970 * 1000) }

    /// A JWSTransactionDecodedPayload of an auto-renewable subscription.
    static func transaction(
        id: String, originalID: String? = nil, environment: String, bundleID: String = bundleID, now: Date = Date()
    ) -> String {
        json([
            "transactionId": id, "originalTransactionId": originalID ?? id, "bundleId": bundleID,
            "productId": "com.example.pro.monthly", "subscriptionGroupIdentifier": "21000000",
            "purchaseDate": ms(now.addingTimeInterval(-86_400)), "originalPurchaseDate": ms(now.addingTimeInterval(-86_400)),
            "expiresDate": ms(now.addingTimeInterval(29 * 86_400)), "quantity": 1,
            "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
            "environment": environment, "signedDate": ms(now), "transactionReason": "PURCHASE",
        ])
    }

    /// A JWSRenewalInfoDecodedPayload.
    static func renewal(originalID: String, environment: String, now: Date = Date()) -> String {
        json([
            "originalTransactionId": originalID, "productId": "com.example.pro.monthly",
            "autoRenewProductId": "com.example.pro.monthly", "autoRenewStatus": 1,
            "environment": environment, "signedDate": ms(now), "renewalDate": ms(now.addingTimeInterval(29 * 86_400)),
        ])
    }

    /// A version 2 notification payload carrying a signed transaction.
    static func notification(
        type: String, uuid: String = UUID().uuidString, environment: String, signedTransaction: String?, now: Date = Date()
    ) -> String {
        var data: [String: Any] = ["bundleId": bundleID, "environment": environment, "appAppleId": 1_234_567_890]
        if let signedTransaction {
            data["signedTransactionInfo"] = signedTransaction
            data["status"] = 1
        }
        return json(["notificationType": type, "notificationUUID": uuid, "version": "2.0", "signedDate": ms(now), "data": data])
    }

    static func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
