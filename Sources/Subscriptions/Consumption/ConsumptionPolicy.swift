/// What an app tells Apple when a customer asks for a refund (Send Consumption Information,
/// answering a CONSUMPTION_REQUEST): the app's `consumption` settings, and the request body
/// they make. Apple refuses a body whose `customerConsented` is not true, so one is only
/// built for a customer who consented.
public struct ConsumptionPolicy: Sendable, Hashable {
    /// The outcome the app prefers (`NO_PREFERENCE` leaves the field out).
    public enum RefundPreference: String, Sendable, CaseIterable {
        case decline = "DECLINE"
        case grantFull = "GRANT_FULL"
        case grantProrated = "GRANT_PRORATED"
        case noPreference = "NO_PREFERENCE"
    }

    /// Whether the app delivered a purchase that works.
    public enum DeliveryStatus: String, Sendable, CaseIterable {
        case delivered = "DELIVERED"
        case undeliveredQualityIssue = "UNDELIVERED_QUALITY_ISSUE"
        case undeliveredWrongItem = "UNDELIVERED_WRONG_ITEM"
        case undeliveredServerOutage = "UNDELIVERED_SERVER_OUTAGE"
        case undeliveredOther = "UNDELIVERED_OTHER"
    }

    public var refundPreference: RefundPreference
    public var deliveryStatus: DeliveryStatus
    /// Whether a free sample, trial or description of the content came before the purchase.
    public var sampleContentProvided: Bool

    /// A policy; the defaults say "delivered, no preference, no sample".
    public init(
        refundPreference: RefundPreference = .noPreference, deliveryStatus: DeliveryStatus = .delivered, sampleContentProvided: Bool = false
    ) {
        self.refundPreference = refundPreference
        self.deliveryStatus = deliveryStatus
        self.sampleContentProvided = sampleContentProvided
    }

    /// The preference sent for a purchase with no reported consumption: `GRANT_PRORATED` of
    /// anything but an auto-renewable subscription needs a consumption percentage, so it is
    /// left out there (nil: no preference sent).
    public func refundPreference(autoRenewable: Bool) -> RefundPreference? {
        switch refundPreference {
        case .noPreference: nil
        case .grantProrated where !autoRenewable: nil
        default: refundPreference
        }
    }

    /// The JSON body of Send Consumption Information (V2) for a consenting customer, keys
    /// sorted: `{"consumptionPercentage"?:…,"customerConsented":true,"deliveryStatus":…,
    /// "refundPreference"?:…,"sampleContentProvided":…}`. What the app's backend reported of
    /// the purchase (`reportedPercentage` in milliunits of a percent, `reportedDelivery`) is
    /// sent instead of the defaults; with a percentage, `GRANT_PRORATED` holds for any purchase.
    public func body(autoRenewable: Bool, reportedPercentage: Int? = nil, reportedDelivery: DeliveryStatus? = nil) -> String {
        var members: [String] = []
        if let reportedPercentage { members.append("\"consumptionPercentage\":\(min(max(reportedPercentage, 0), 100_000))") }
        members += [
            "\"customerConsented\":true",
            "\"deliveryStatus\":\"\((reportedDelivery ?? deliveryStatus).rawValue)\"",
        ]
        let preference =
            reportedPercentage != nil && refundPreference == .grantProrated
            ? .grantProrated : refundPreference(autoRenewable: autoRenewable)
        if let preference {
            members.append("\"refundPreference\":\"\(preference.rawValue)\"")
        }
        members.append("\"sampleContentProvided\":\(sampleContentProvided)")
        return "{" + members.joined(separator: ",") + "}"
    }
}
