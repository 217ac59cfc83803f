import Foundation

/// Where a newest-first list of inbox or outbox rows continues: after the row stored at `at`
/// (a notification's `received_at`, a webhook event's `created_at`) with id `id`.
///
/// `text` carries it in a link and `init(text:)` reads it back (nil for anything else).
public struct ListCursor: Sendable, Equatable, Hashable {
    /// The time of the last row shown.
    public let at: Date
    /// Its id.
    public let id: Int64

    /// The position of the row stored at `at` with `id`.
    public init(at: Date, id: Int64) {
        self.at = at
        self.id = id
    }

    /// `MICROSECONDS.ID`: the time as microseconds since 1970, then the id.
    public var text: String { "\(Int64((at.timeIntervalSince1970 * 1_000_000).rounded())).\(id)" }

    /// The cursor `text` was made from, or nil when it is not one.
    public init?(text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let micros = Int64(parts[0]), Self.storableMicros.contains(micros), let id = Int64(parts[1]) else {
            return nil
        }
        self.init(at: Date(timeIntervalSince1970: Double(micros) / 1_000_000), id: id)
    }

    /// Years 0001 through 9999 in microseconds since 1970: the times a `timestamptz` of ours holds.
    private static let storableMicros: ClosedRange<Int64> = -62_135_596_800_000_000...253_402_300_799_999_999
}
