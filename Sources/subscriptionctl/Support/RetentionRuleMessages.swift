import Settings

/// The message identifiers an app's `"retention"` rules (`SUBSCRIPTIOND_CONFIG`) answer
/// with, which `retention messages list` marks, warning about those Apple has not approved:
/// the App Store shows the default message instead of an unapproved one.
///
/// Hook: returns nothing until the per-app retention rules are part of `ServiceConfiguration`;
/// wire them here (lower-cased identifiers of every rule's `message_identifier`).
enum RetentionRuleMessages {
    static func identifiers(bundleID: String, settings: ServiceConfiguration) -> Set<String> {
        []
    }
}
