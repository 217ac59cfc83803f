import Store

/// Where a purchase Apple did not vouch for in time waits for the worker: the inbox
/// (`NotificationInbox` in production), which answers only once the entry is stored.
public protocol PurchaseQueue: Sendable {
    /// Stores `entry` unless one with its dedupe key is stored already; returns once committed.
    func insert(_ entry: InboxEntry) async throws -> InboxInsertResult
}
