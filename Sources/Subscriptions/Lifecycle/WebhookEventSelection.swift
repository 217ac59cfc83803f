/// Which lifecycle events are written to the webhook outbox, per app: an app's backend gets
/// the types it asked for (`webhook_event_types`), and an app with no webhook URL gets none,
/// so nothing piles up undeliverable. An app not listed gets every type.
public struct WebhookEventSelection: Sendable, Equatable {
    private let byBundleID: [String: Set<LifecycleEvent.Kind>]

    public init(_ byBundleID: [String: Set<LifecycleEvent.Kind>]) {
        self.byBundleID = byBundleID
    }

    /// Every type for every app.
    public static let everything = WebhookEventSelection([:])

    /// The types written for `bundleID`.
    public func kinds(bundleID: String) -> Set<LifecycleEvent.Kind> {
        byBundleID[bundleID] ?? Set(LifecycleEvent.Kind.allCases)
    }
}
