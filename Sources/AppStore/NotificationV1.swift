import Foundation

/// A version 1 server-to-server notification body (plain JSON, authenticated only by `password`).
///
/// Forward compatible: raw strings are kept and typed views are optional, so a value Apple
/// adds later never fails decoding. Only a non-object body, a missing `notification_type`
/// or a non-object `unified_receipt` are errors (intake answers 400).
public struct NotificationV1: Sendable, Decodable {
    /// `notification_type` exactly as sent.
    public var notificationTypeRaw: String
    /// `password`: the app's shared secret. Compare it, never store or log it.
    public var password: String?
    /// `environment` exactly as sent (`PROD` or `Sandbox`).
    public var environmentRaw: String?
    /// `bid`: the app's bundle id.
    public var bundleID: String?
    /// `bvrs`: the app's bundle version.
    public var bundleVersion: String?
    /// `auto_renew_status` (`"true"`/`"false"` here, unlike the receipt's `"1"`/`"0"`).
    public var autoRenewStatus: Bool?
    /// `auto_renew_status_change_date_ms`.
    public var autoRenewStatusChangeDate: Date?
    /// `auto_renew_product_id`.
    public var autoRenewProductID: String?
    /// `expiration_intent` exactly as sent.
    public var expirationIntentRaw: String?
    /// `unified_receipt`, present in every body since 2020.
    public var unifiedReceipt: UnifiedReceipt?
    /// Legacy top-level `latest_receipt` (bodies before March 2021).
    public var latestReceipt: String?
    /// Legacy top-level `latest_receipt_info`: one transaction object.
    public var latestReceiptInfo: ReceiptTransaction?
    /// Legacy top-level `latest_expired_receipt`.
    public var latestExpiredReceipt: String?
    /// Legacy top-level `latest_expired_receipt_info`: one transaction object.
    public var latestExpiredReceiptInfo: ReceiptTransaction?
    /// Legacy top-level `original_transaction_id`.
    public var originalTransactionID: String?
    /// Legacy top-level `cancellation_date_ms`.
    public var cancellationDate: Date?
    /// Legacy top-level `is_in_billing_retry_period`.
    public var isInBillingRetryPeriod: Bool?

    /// The typed notification type; `nil` for a type this code does not know yet.
    public var notificationType: NotificationV1Type? {
        NotificationV1Type(rawValue: notificationTypeRaw)
    }

    /// The normalised environment (`PROD` becomes `.production`).
    public var environment: AppStoreEnvironment? {
        environmentRaw.flatMap(AppStoreEnvironment.init(appleValue:))
    }

    /// The typed expiration intent.
    public var expirationIntent: ExpirationIntent? {
        expirationIntentRaw.flatMap(ExpirationIntent.init(appleCode:))
    }

    /// Builds a notification in code (tests, the simulator); unspecified fields are absent.
    public init(notificationTypeRaw: String, environmentRaw: String? = nil, unifiedReceipt: UnifiedReceipt? = nil) {
        self.notificationTypeRaw = notificationTypeRaw
        self.environmentRaw = environmentRaw
        self.unifiedReceipt = unifiedReceipt
    }

    /// Decodes a body; see the type's documentation for what fails.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleKey.self)
        guard let type = c.lenientString("notification_type") else {
            throw DecodingError.keyNotFound(
                AppleKey("notification_type"),
                .init(codingPath: decoder.codingPath, debugDescription: "notification_type is missing")
            )
        }
        notificationTypeRaw = type
        password = c.lenientString("password")
        environmentRaw = c.lenientString("environment")
        bundleID = c.lenientString("bid")
        bundleVersion = c.lenientString("bvrs")
        autoRenewStatus = c.lenientBool("auto_renew_status")
        autoRenewStatusChangeDate = try c.lenientDate("auto_renew_status_change_date_ms", "auto_renew_status_change_date")
        autoRenewProductID = c.lenientString("auto_renew_product_id")
        expirationIntentRaw = c.lenientString("expiration_intent")
        // Strict on purpose: a unified_receipt that is not an object means the body is not
        // what Apple sends, and intake must say 400 rather than acknowledge garbage.
        unifiedReceipt = try c.decodeIfPresent(UnifiedReceipt.self, forKey: AppleKey("unified_receipt"))
        latestReceipt = c.lenientString("latest_receipt")
        latestReceiptInfo = try c.lenientObject(ReceiptTransaction.self, "latest_receipt_info")
        latestExpiredReceipt = c.lenientString("latest_expired_receipt")
        latestExpiredReceiptInfo = try c.lenientObject(ReceiptTransaction.self, "latest_expired_receipt_info")
        originalTransactionID = c.lenientString("original_transaction_id")
        cancellationDate = try c.lenientDate("cancellation_date_ms", "cancellation_date")
        isInBillingRetryPeriod = c.lenientBool("is_in_billing_retry_period")
    }
}
