import Settings
import Subscriptions

/// The message identifiers an app's `"retention"` rules (`SUBSCRIPTIOND_CONFIG`) answer
/// with, which `retention messages list` marks, warning about those Apple has not approved:
/// the App Store shows the default message instead of an unapproved one.
enum RetentionRuleMessages {
    /// The lower-cased identifiers of every rule's `message_identifier` of the app `bundleID`.
    static func identifiers(bundleID: String, settings: ServiceConfiguration) -> Set<String> {
        settings.apps.app(bundleID: bundleID)?.retentionRules.messageIdentifiers ?? []
    }
}
