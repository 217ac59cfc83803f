/// Which eligibility rule to apply (APPSTORE.md, "Introductory offers").
public enum EligibilityPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Apple's documented rule: ineligible after an intro offer or free trial in the group,
    /// or while entitled to a subscription in it. The default.
    case apple
    /// Some vendors' stricter rule: also ineligible after any purchase in the group, offer or not.
    case strict
}
