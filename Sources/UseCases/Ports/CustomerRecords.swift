import Foundation
import Store

/// Where the console finds customers and reads their timelines (`CustomerQueries` in production).
public protocol CustomerRecords: Sendable {
    /// The customers and purchases `text` names exactly (as an app user id, an original
    /// transaction id, a transaction id, or, when `token` is given, an app account token in
    /// lower case), ordered by field; at most `limit`.
    func search(text: String, token: String?, limit: Int) async throws -> [CustomerMatch]
    /// The other users linked to the purchases of `appUserID`, by purchase then user, at most `limit`.
    func linkedUsers(of appUserID: String, limit: Int) async throws -> [(originalTransactionID: String, appUserID: String)]
    /// One page of `subject`'s timeline after `before`, newest first, at most `limit` items.
    func timeline(of subject: TimelineSubject, before: TimelineCursor?, limit: Int) async throws -> TimelinePage
}
