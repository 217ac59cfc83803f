import Foundation
import Store

/// The console's customers page: finding a customer by anything support is given (an app
/// user id, an original transaction id, a transaction id, an app account token) and reading
/// one timeline of everything that happened to them, a page at a time.
public struct CustomerDirectory: Sendable {
    /// The most matches or items one call returns.
    public static let maximumLimit = 200
    /// The longest text that can be an id: anything longer names nobody.
    public static let maximumSearchBytes = 512

    private let records: any CustomerRecords

    /// The directory over `records`.
    public init(records: any CustomerRecords) {
        self.records = records
    }

    /// The customers and purchases `text` (trimmed) names exactly, as an app user id, an
    /// original transaction id, a transaction id or an app account token (any case); ordered
    /// by field, without duplicates, at most `limit` (up to ``maximumLimit``).
    ///
    /// Never fails on what was typed: empty text, text longer than ``maximumSearchBytes``, or
    /// text holding NUL (no stored id can) finds nothing.
    public func search(_ text: String, limit: Int = 50) async throws -> [CustomerMatch] {
        guard let wanted = Self.searchable(text), limit > 0 else { return [] }
        let found = try await records.search(text: wanted.text, token: wanted.token, limit: min(limit, Self.maximumLimit))
        var seen = Set<CustomerMatch>()
        return found.filter { seen.insert($0).inserted }
    }

    /// The other users linked to the purchases `appUserID` is linked to (in the same
    /// environment), by purchase then user, at most `limit` (up to ``maximumLimit``).
    public func linkedUsers(
        of appUserID: String, limit: Int = maximumLimit
    ) async throws -> [(
        originalTransactionID: String, appUserID: String
    )] {
        try await records.linkedUsers(of: appUserID, limit: min(max(limit, 0), Self.maximumLimit))
    }

    /// One page of the timeline of `appUserID`: the purchases linked to it in every
    /// environment, its queued receipts, entitlement events and audit rows; newest first,
    /// after `before` (nil: from the newest), at most `limit` items (up to ``maximumLimit``).
    public func timeline(appUserID: String, before: TimelineCursor? = nil, limit: Int = 50) async throws -> TimelinePage {
        guard !appUserID.isEmpty, limit > 0 else { return .empty }
        return try await records.timeline(of: .customer(appUserID: appUserID), before: before, limit: min(limit, Self.maximumLimit))
    }

    /// One page of the timeline of one purchase (subscription or one-time purchase), as
    /// ``timeline(appUserID:before:limit:)`` pages a customer's.
    public func timeline(
        originalTransactionID: String, environment: String, before: TimelineCursor? = nil, limit: Int = 50
    ) async throws -> TimelinePage {
        guard !originalTransactionID.isEmpty, limit > 0 else { return .empty }
        return try await records.timeline(
            of: .purchase(originalTransactionID: originalTransactionID, environment: environment), before: before,
            limit: min(limit, Self.maximumLimit))
    }

    /// The text to look for and, when it is a UUID, the app account token it spells (lower
    /// case, as stored); nil when it cannot name anything.
    static func searchable(_ text: String) -> (text: String, token: String?)? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= maximumSearchBytes, !trimmed.utf8.contains(0) else { return nil }
        return (trimmed, UUID(uuidString: trimmed).map { $0.uuidString.lowercased() })
    }
}
