import Foundation
import SigningTestSupport

/// Apple-shaped JSON payloads for the signing tests.
enum TestPayloads {
    /// 2025-01-01T00:00:00Z in Apple's milliseconds: inside ``TestPKI``'s default validity.
    static let signedMillis: Int64 = 1_735_689_600_000

    static func notification(
        signedMillis: Int64 = signedMillis, bundleID: String = "com.example.app",
        environment: String = "Sandbox", appAppleID: Int64 = 1234,
        transaction: String? = nil, renewal: String? = nil
    ) -> String {
        var data: [String: Any] = ["bundleId": bundleID, "environment": environment, "appAppleId": appAppleID]
        if let transaction { data["signedTransactionInfo"] = transaction }
        if let renewal { data["signedRenewalInfo"] = renewal }
        let object: [String: Any] = [
            "notificationType": "DID_RENEW", "notificationUUID": "00000000-0000-4000-8000-000000000001",
            "version": "2.0", "signedDate": signedMillis, "data": data,
        ]
        return json(object)
    }

    static func transaction(signedMillis: Int64 = signedMillis, bundleID: String = "com.example.app") -> String {
        json([
            "transactionId": "2000000000000002", "originalTransactionId": "2000000000000001",
            "bundleId": bundleID, "productId": "pro.monthly", "environment": "Sandbox",
            "purchaseDate": signedMillis - 60_000, "expiresDate": signedMillis + 2_592_000_000,
            "signedDate": signedMillis, "type": "Auto-Renewable Subscription",
        ])
    }

    static func renewal(signedMillis: Int64 = signedMillis) -> String {
        json([
            "originalTransactionId": "2000000000000001", "autoRenewProductId": "pro.monthly",
            "autoRenewStatus": 1, "environment": "Sandbox", "signedDate": signedMillis,
        ])
    }

    private static func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
