import Foundation

/// One line of a customer's (or a subscription's) timeline in the console: something that
/// happened, when, and the detail page that tells more.
public struct TimelineItem: Sendable, Equatable, Hashable {
    /// What kind of thing happened. At the same instant, later kinds come first (newest
    /// first), in the order a change travels: transaction, renewal info, notification,
    /// status change, webhook event, audit row.
    public enum Kind: String, Sendable, CaseIterable {
        /// A transaction was made (at its purchase date).
        case transaction
        /// The stored renewal information (at the time Apple stated it; only the newest is kept).
        case renewal
        /// A notification (or a queued receipt) arrived in the inbox.
        case notification
        /// A subscription's status changed (`status_events`).
        case statusChange
        /// A webhook event for the app's backend was written.
        case webhookEvent
        /// An operator or the API did something by hand (`audit_log`: grants, unlinks, consent).
        case audit

        /// Its place in the order of kinds at one instant, from 1.
        var rank: Int { (Self.allCases.firstIndex(of: self) ?? 0) + 1 }

        /// The kind of `rank`, or nil.
        init?(rank: Int) {
            guard Self.allCases.indices.contains(rank - 1) else { return nil }
            self = Self.allCases[rank - 1]
        }
    }

    /// The detail page an item leads to.
    public enum Reference: Sendable, Equatable, Hashable {
        /// An inbox row (`notifications show ID`).
        case notification(id: Int64)
        /// An outbox row (`webhooks show ID`).
        case webhookEvent(id: Int64)
        /// A subscription or one-time purchase.
        case subscription(originalTransactionID: String, environment: String)
        /// One transaction.
        case transaction(id: String, environment: String)
        /// An audit row.
        case audit(id: Int64)
    }

    /// What happened.
    public let kind: Kind
    /// When it happened.
    public let at: Date
    /// One line saying what happened.
    public let title: String
    /// More about it, when there is more.
    public let detail: String?
    /// Where the console shows it in full.
    public let reference: TimelineItem.Reference
    /// Orders items of one kind at one instant, and identifies the item among them: the row's
    /// id as 20 digits, or `ENVIRONMENT:ID` for transactions and renewal info.
    public let key: String

    /// An item (tests and fakes; the store reads them from rows).
    public init(kind: Kind, at: Date, title: String, detail: String?, reference: TimelineItem.Reference, key: String) {
        self.kind = kind
        self.at = at
        self.title = title
        self.detail = detail
        self.reference = reference
        self.key = key
    }

    /// The cursor of the page that continues after this item.
    public var cursor: TimelineCursor { TimelineCursor(at: at, kind: kind, key: key) }
}

/// One page of a timeline, newest first.
public struct TimelinePage: Sendable, Equatable {
    /// The items, newest first.
    public let items: [TimelineItem]
    /// Where the next (older) page starts; nil on the last page.
    public let next: TimelineCursor?

    /// A page of `items`, continued at `next`.
    public init(items: [TimelineItem], next: TimelineCursor?) {
        self.items = items
        self.next = next
    }

    /// A page with nothing on it.
    public static let empty = TimelinePage(items: [], next: nil)
}
