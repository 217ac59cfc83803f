import AppStore
import Foundation
import Subscriptions

/// An entitlement's state frozen in the outbox (`webhook_events.entitlement`), as the
/// subscriber JSON's `entitlements` shows it, so every attempt of its event sends the same bytes.
struct StoredEntitlementState: OutboxFrozenState {
    var id: String
    var active: Bool
    var source: EntitlementSource?
    var productID: String?
    var expiresAt: Date?
    var environment: AppStoreEnvironment?

    init(_ change: EntitlementChanges.Change) {
        id = change.entitlementID
        active = change.state.active
        source = change.state.source
        productID = change.state.productID
        expiresAt = change.state.expiresAt
        environment = change.state.environment
    }

    /// The change again.
    var change: EntitlementChanges.Change {
        EntitlementChanges.Change(
            entitlementID: id,
            state: EntitlementState(active: active, source: source, productID: productID, expiresAt: expiresAt, environment: environment))
    }
}
