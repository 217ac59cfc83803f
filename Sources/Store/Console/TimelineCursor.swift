import Foundation

/// Where a timeline page starts: the page holds the items that come after this position in
/// the timeline's order (time, newest first; then kind; then key), never the position itself.
///
/// `text` carries it in a link (`?before=…`) and `init(text:)` reads it back; a changed or
/// made-up text reads as nil, or as some position, never as an error.
public struct TimelineCursor: Sendable, Equatable, Hashable {
    /// The time of the last item shown, to the microsecond (what PostgreSQL keeps).
    public let at: Date
    /// Its kind.
    public let kind: TimelineItem.Kind
    /// Its key.
    public let key: String

    /// The position of an item with `at`, `kind` and `key`.
    public init(at: Date, kind: TimelineItem.Kind, key: String) {
        self.at = at
        self.kind = kind
        self.key = key
    }

    /// `MICROSECONDS.KIND.KEY`: the time as microseconds since 1970, then the kind, then the key.
    public var text: String {
        "\(Int64((at.timeIntervalSince1970 * 1_000_000).rounded())).\(kind.rawValue).\(key)"
    }

    /// The cursor `text` was made from, or nil when it is not one.
    public init?(text: String) {
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let micros = Int64(parts[0]), Self.storableMicros.contains(micros),
            let kind = TimelineItem.Kind(rawValue: String(parts[1])), !parts[2].utf8.contains(0)
        else { return nil }
        self.init(at: Date(timeIntervalSince1970: Double(micros) / 1_000_000), kind: kind, key: String(parts[2]))
    }

    /// Years 0001 through 9999 in microseconds since 1970: the times a `timestamptz` of ours
    /// holds, so a cursor read from a link never binds one PostgreSQL refuses.
    private static let storableMicros: ClosedRange<Int64> = -62_135_596_800_000_000...253_402_300_799_999_999
}
