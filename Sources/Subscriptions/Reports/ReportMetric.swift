/// The business's numbers (DESIGN.md, "Money and reports"), defined as RevenueCat defines
/// them so teams compare like with like.
public enum ReportMetric: String, CaseIterable, Sendable {
    case activeSubscriptions = "active_subscriptions"
    case activeTrials = "active_trials"
    case mrr, arr
    case newSubscriptions = "new_subscriptions"
    case newTrials = "new_trials"
    case churn
    case trialConversion = "trial_conversion"
    case revenue, proceeds
    case refundRate = "refund_rate"

    /// True for the metrics that are rates (`value` is a share of a base, or null).
    public var isRate: Bool {
        switch self {
        case .churn, .trialConversion, .refundRate: true
        default: false
        }
    }

    /// True for the metrics that are amounts of money (in the report currency).
    public var isAmount: Bool {
        switch self {
        case .mrr, .arr, .revenue, .proceeds: true
        default: false
        }
    }
}

/// How reports cut time: UTC days, ISO weeks (Monday first) or calendar months.
public enum ReportInterval: String, CaseIterable, Sendable {
    case day, week, month
}

/// What a report's points may be grouped by.
public enum ReportGrouping: String, CaseIterable, Sendable {
    case product, storefront, app

    /// The group a number about this app, product and storefront falls in.
    public func key(bundleID: String, productID: String, storefront: String?) -> String {
        switch self {
        case .app: bundleID
        case .product: productID
        case .storefront: storefront ?? "unknown"
        }
    }
}
