import Access
import Foundation
import Store

/// Putting a dead notification or webhook event back to work (an admin's action in the
/// console; `subscriptionctl notifications|webhooks replay` at the terminal), with an audit
/// row naming who.
public struct DeadWorkReplay: Sendable {
    /// Which queue an item is in.
    public enum Queue: String, Sendable {
        case notification, webhook
    }

    private let notifications: any ReplayableQueue
    private let webhooks: any ReplayableQueue
    private let audit: any AuditTrail

    public init(notifications: any ReplayableQueue, webhooks: any ReplayableQueue, audit: any AuditTrail) {
        self.notifications = notifications
        self.webhooks = webhooks
        self.audit = audit
    }

    /// Puts item `id` of `queue` back to `pending`, due now.
    public func replay(_ queue: Queue, id: Int64, by principal: Principal) async throws {
        guard principal.may(.admin) else { throw UseCaseError.forbidden("replaying needs the admin scope") }
        switch try await (queue == .notification ? notifications : webhooks).replay(ids: [id]) {
        case .requeued:
            try await audit.record(action: "\(queue.rawValue)_replayed", actor: principal.actor, appUserID: nil, detail: ["id": "\(id)"])
        case .unknown:
            throw UseCaseError.notFound("no \(queue.rawValue) \(id)")
        }
    }
}
