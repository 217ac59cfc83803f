import Foundation
import Store

/// The queues whose items can be put back to work (`InboxQueries`, `WebhookQueries` in
/// production): all the given ids, or none when one is unknown.
public protocol ReplayableQueue: Sendable {
    func replay(ids: [Int64]) async throws -> InboxQueries.ReplayResult
}
