import Foundation

/// The JSON body Apple's `verifyReceipt` answers with (always HTTP 200; see `status`).
public struct VerifyReceiptResponse: Sendable, Decodable {
    /// `status`: `0` valid; see `VerifyReceiptStatus.classify(status:isRetryable:)`.
    public var status: Int
    /// `environment` exactly as sent.
    public var environmentRaw: String?
    /// `is-retryable` (also spelled `is_retryable`), set for 21100–21199.
    public var isRetryable: Bool?
    /// `latest_receipt`: the base64 receipt to store and re-verify later.
    public var latestReceipt: String?
    /// `latest_receipt_info`: all subscription transactions; empty when absent.
    public var latestReceiptInfo: [ReceiptTransaction]
    /// `pending_renewal_info`; empty when absent.
    public var pendingRenewalInfo: [PendingRenewalInfo]
    /// `receipt`: the decoded app receipt.
    public var receipt: ReceiptBody?
    /// Legacy `latest_expired_receipt_info` (status 21006 bodies).
    public var latestExpiredReceiptInfo: ReceiptTransaction?
    /// Legacy top-level `auto_renew_status` (status 21006 bodies).
    public var autoRenewStatus: Bool?
    /// Legacy top-level `auto_renew_product_id` (status 21006 bodies).
    public var autoRenewProductID: String?

    /// The normalised environment; `nil` when absent (error and legacy bodies).
    public var environment: AppStoreEnvironment? {
        environmentRaw.flatMap(AppStoreEnvironment.init(appleValue:))
    }

    /// What to do with this response.
    public var outcome: VerifyReceiptOutcome {
        VerifyReceiptStatus.classify(status: status, isRetryable: isRetryable)
    }

    /// Builds a response in code (tests, the simulator).
    public init(
        status: Int,
        environmentRaw: String? = nil,
        isRetryable: Bool? = nil,
        latestReceipt: String? = nil,
        latestReceiptInfo: [ReceiptTransaction] = [],
        pendingRenewalInfo: [PendingRenewalInfo] = [],
        receipt: ReceiptBody? = nil,
        latestExpiredReceiptInfo: ReceiptTransaction? = nil,
        autoRenewStatus: Bool? = nil,
        autoRenewProductID: String? = nil
    ) {
        self.status = status
        self.environmentRaw = environmentRaw
        self.isRetryable = isRetryable
        self.latestReceipt = latestReceipt
        self.latestReceiptInfo = latestReceiptInfo
        self.pendingRenewalInfo = pendingRenewalInfo
        self.receipt = receipt
        self.latestExpiredReceiptInfo = latestExpiredReceiptInfo
        self.autoRenewStatus = autoRenewStatus
        self.autoRenewProductID = autoRenewProductID
    }

    /// Decodes leniently; fails only for a non-object body or one without a numeric `status`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleKey.self)
        guard let status = c.lenientInt("status") else {
            throw DecodingError.keyNotFound(
                AppleKey("status"),
                .init(codingPath: decoder.codingPath, debugDescription: "verifyReceipt body without status")
            )
        }
        self.init(
            status: status,
            environmentRaw: c.lenientString("environment"),
            isRetryable: c.lenientBool("is-retryable", "is_retryable"),
            latestReceipt: c.lenientString("latest_receipt"),
            latestReceiptInfo: try c.lenientObjects(ReceiptTransaction.self, "latest_receipt_info"),
            pendingRenewalInfo: try c.lenientObjects(PendingRenewalInfo.self, "pending_renewal_info"),
            receipt: try c.lenientObject(ReceiptBody.self, "receipt"),
            latestExpiredReceiptInfo: try c.lenientObject(ReceiptTransaction.self, "latest_expired_receipt_info"),
            autoRenewStatus: c.lenientBool("auto_renew_status"),
            autoRenewProductID: c.lenientString("auto_renew_product_id")
        )
    }

    /// Decodes a raw response body.
    public static func decode(from bytes: [UInt8]) throws -> VerifyReceiptResponse {
        try JSONDecoder().decode(VerifyReceiptResponse.self, from: Data(bytes))
    }

    /// Same as `VerifyReceiptStatus.classify(status:isRetryable:)`.
    public static func classify(status: Int, isRetryable: Bool?) -> VerifyReceiptOutcome {
        VerifyReceiptStatus.classify(status: status, isRetryable: isRetryable)
    }
}
