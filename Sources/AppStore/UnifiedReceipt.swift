/// The `unified_receipt` object of a v1 notification: the same data a verifyReceipt call
/// would return, as of the notification.
public struct UnifiedReceipt: Sendable, Decodable {
    /// `environment` exactly as sent.
    public var environmentRaw: String?
    /// `latest_receipt`: the base64 receipt to store and re-verify later.
    public var latestReceipt: String?
    /// `latest_receipt_info`: all transactions (an array; one object in old bodies).
    public var latestReceiptInfo: [ReceiptTransaction]
    /// `pending_renewal_info`.
    public var pendingRenewalInfo: [PendingRenewalInfo]
    /// `status`: `0` when the receipt is valid.
    public var status: Int?

    /// The normalised environment, `nil` when absent or unrecognised.
    public var environment: AppStoreEnvironment? {
        environmentRaw.flatMap(AppStoreEnvironment.init(appleValue:))
    }

    /// Builds a unified receipt in code (tests, the simulator).
    public init(
        environmentRaw: String? = nil,
        latestReceipt: String? = nil,
        latestReceiptInfo: [ReceiptTransaction] = [],
        pendingRenewalInfo: [PendingRenewalInfo] = [],
        status: Int? = 0
    ) {
        self.environmentRaw = environmentRaw
        self.latestReceipt = latestReceipt
        self.latestReceiptInfo = latestReceiptInfo
        self.pendingRenewalInfo = pendingRenewalInfo
        self.status = status
    }

    /// Decodes the object leniently; only a non-object fails.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleKey.self)
        self.init(
            environmentRaw: c.lenientString("environment"),
            latestReceipt: c.lenientString("latest_receipt"),
            latestReceiptInfo: try c.lenientObjects(ReceiptTransaction.self, "latest_receipt_info"),
            pendingRenewalInfo: try c.lenientObjects(PendingRenewalInfo.self, "pending_renewal_info"),
            status: c.lenientInt("status")
        )
    }
}
