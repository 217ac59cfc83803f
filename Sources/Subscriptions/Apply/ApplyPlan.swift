import AppStore
import Foundation

/// A subscription whose status changed while facts were applied.
public struct StatusChange: Sendable, Equatable {
    /// The subscription.
    public let originalTransactionID: String
    /// Its environment.
    public let environment: AppStoreEnvironment
    /// The status before (nil for a new subscription).
    public let oldStatus: SubscriptionStatus?
    /// The status now.
    public let newStatus: SubscriptionStatus

    public init(
        originalTransactionID: String, environment: AppStoreEnvironment, oldStatus: SubscriptionStatus?, newStatus: SubscriptionStatus
    ) {
        self.originalTransactionID = originalTransactionID
        self.environment = environment
        self.oldStatus = oldStatus
        self.newStatus = newStatus
    }
}

/// Everything applying one batch of facts writes, decided by ``FactApplication`` from what is
/// stored: the store only writes it, in this order.
public struct ApplyPlan: Sendable {
    /// Transactions that restate stored ones with a newer statement time only: one update per time.
    public struct Restatement: Sendable, Equatable {
        public let statedAt: Date
        public let transactionIDs: [String]

        public init(statedAt: Date, transactionIDs: [String]) {
            self.statedAt = statedAt
            self.transactionIDs = transactionIDs
        }
    }

    /// One subscription row rewritten from every stored fact of its original transaction.
    public struct SubscriptionWrite: Sendable {
        /// Its status and fields now.
        public let snapshot: SubscriptionSnapshot
        /// When time alone changes its status next (the sweep's due time).
        public let dueAt: Date?
        /// The status of the stored row before (nil: a new subscription).
        public let previousStatus: SubscriptionStatus?
        /// The lifecycle events of the change (``LifecycleRule``).
        public let events: [LifecycleEvent]

        /// Whether the status moved: a status event is recorded and listeners are told.
        public var statusChanged: Bool { previousStatus != snapshot.status }
    }

    /// The links of one subscription or purchase after the ownership rule.
    public struct LinkWrite: Sendable, Equatable {
        public let originalTransactionID: String
        public let change: PurchaseOwnership.Change
        /// A claimant already linked: its link now rests on its proof, not on a hint.
        public let confirmed: String?

        public init(originalTransactionID: String, change: PurchaseOwnership.Change, confirmed: String?) {
            self.originalTransactionID = originalTransactionID
            self.change = change
            self.confirmed = confirmed
        }
    }

    /// The webhook events of one subscription or purchase, after the app's selection.
    public struct Outbox: Sendable, Equatable {
        public enum Subject: Sendable, Equatable {
            case subscription(previousStatus: SubscriptionStatus?)
            case purchase
        }
        public let originalTransactionID: String
        public let subject: Subject
        public let events: [LifecycleEvent]
        /// Who lost the purchase (`user_unlinked` names them).
        public let unlinkedUsers: [String]
    }

    /// The users whose entitlements may have moved: linked to `originalTransactionIDs`, or in `alsoUsers`.
    public struct Review: Sendable, Equatable {
        public let originalTransactionIDs: [String]
        public let alsoUsers: [String]

        public init(originalTransactionIDs: [String], alsoUsers: [String]) {
            self.originalTransactionIDs = originalTransactionIDs
            self.alsoUsers = alsoUsers
        }
    }

    /// A one-time purchase to tell Apple about with Finish Transaction.
    public struct Finish: Sendable, Equatable {
        public let transactionID: String
        public let originalTransactionID: String
        /// A consumable: finished once the app's backend confirms delivery.
        public let awaitsDelivery: Bool

        public init(transactionID: String, originalTransactionID: String, awaitsDelivery: Bool) {
            self.transactionID = transactionID
            self.originalTransactionID = originalTransactionID
            self.awaitsDelivery = awaitsDelivery
        }
    }

    /// The environment of every write.
    public let environment: AppStoreEnvironment
    /// The app of every write.
    public let bundleID: String
    /// New or changed transactions, each written whole.
    public internal(set) var transactions: [TransactionFact] = []
    /// Transactions whose only change is their statement time.
    public internal(set) var restatements: [Restatement] = []
    /// Renewal info that replaces what is stored (it is newer).
    public internal(set) var renewals: [RenewalFact] = []
    /// Subscription rows to write, in original transaction order.
    public internal(set) var subscriptions: [SubscriptionWrite] = []
    /// The receipt to keep with the subscriptions, and when Apple stated it.
    public internal(set) var receipt: (receipt: String, observedAt: Date)?
    /// Link changes, subscriptions first, then one-time purchases.
    public internal(set) var links: [LinkWrite] = []
    /// Webhook events to record, in the same order.
    public internal(set) var outbox: [Outbox] = []
    /// The entitlement review to mark due, when the app wants `entitlement_changed`.
    public internal(set) var review: Review?
    /// One-time purchases to finish at Apple (apps with `finish_transactions`).
    public internal(set) var finishes: [Finish] = []
    /// The original application version the claimant proved with a receipt.
    public internal(set) var originalVersion: (appUserID: String, version: OriginalApplicationVersion)?

    /// The status changes of the plan, in subscription order.
    public var statusChanges: [StatusChange] {
        subscriptions.filter(\.statusChanged).map {
            StatusChange(
                originalTransactionID: $0.snapshot.originalTransactionID, environment: environment, oldStatus: $0.previousStatus,
                newStatus: $0.snapshot.status)
        }
    }

    init(environment: AppStoreEnvironment, bundleID: String) {
        self.environment = environment
        self.bundleID = bundleID
    }
}
