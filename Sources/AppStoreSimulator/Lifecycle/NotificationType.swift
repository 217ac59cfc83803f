/// The v1 `notification_type` values the simulator sends.
public enum NotificationType: String, Sendable, Hashable, Codable, CaseIterable {
    /// First purchase in a subscription group.
    case initialBuy = "INITIAL_BUY"
    /// Automatic renewal.
    case didRenew = "DID_RENEW"
    /// Resubscribe after a lapse, an upgrade, or a same-length crossgrade: effective at once.
    case interactiveRenewal = "INTERACTIVE_RENEWAL"
    /// Renewal after a failed one.
    case didRecover = "DID_RECOVER"
    /// Auto-renew turned on or off.
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    /// Another product chosen for the next renewal (downgrade, different-length crossgrade).
    case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    /// Billing failed; Apple retries.
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    /// Apple support refunded the purchase.
    case cancel = "CANCEL"
    /// Apple refunded a consumable, non-consumable or non-renewing purchase.
    case refund = "REFUND"
    /// A Family Sharing member's access ended (the organizer stopped sharing or left).
    case revoke = "REVOKE"
}
