import AppStore
import Foundation

/// Where an inbox entry came from.
public enum InboxSource: String, Sendable, Codable {
    /// A version 1 server-to-server notification.
    case v1
    /// A version 2 (signed) notification.
    case v2
    /// A receipt posted to `/v1/receipts` while the upstream was unavailable.
    case receipt
    /// A transaction id posted to `/v1/transactions` while the App Store Server API was unavailable.
    case transaction
}

/// Processing state of an inbox entry.
public enum InboxState: String, Sendable, Codable, CaseIterable {
    /// Waiting for its first attempt.
    case pending
    /// Failed in a way that can heal; tried again at `next_attempt_at`.
    case retrying
    /// Applied.
    case processed
    /// Failed permanently; `notifications replay` brings it back.
    case dead
}

/// A notification about to be stored: its body already stripped of the shared secret.
public struct InboxEntry: Sendable {
    /// Where it came from.
    public var source: InboxSource
    /// Identifies redeliveries of the same notification.
    public var dedupeKey: String
    /// Apple's `notification_type` (raw, unknown values kept).
    public var notificationType: String?
    /// Apple's v2 `subtype` (raw).
    public var notificationSubtype: String?
    /// Production or Sandbox.
    public var environment: AppStoreEnvironment
    /// The app's bundle id.
    public var bundleID: String
    /// The subscription it concerns, when the body says.
    public var originalTransactionID: String?
    /// For queued receipts: the app's user to link.
    public var appUserID: String?
    /// The JSON body to store (never containing `password`).
    public var body: String
    /// The certificate chains a v2 body's `signedPayload` references instead of holding them
    /// (``SignedPayloadChains``): stored once each in `certificate_chains`, with the entry.
    public var certificateChains: [SignedPayloadChains.Chain]

    /// Creates an entry.
    public init(
        source: InboxSource, dedupeKey: String, notificationType: String?, notificationSubtype: String? = nil,
        environment: AppStoreEnvironment,
        bundleID: String, originalTransactionID: String?, appUserID: String? = nil, body: String,
        certificateChains: [SignedPayloadChains.Chain] = []
    ) {
        self.certificateChains = certificateChains
        self.source = source
        self.dedupeKey = dedupeKey
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.environment = environment
        self.bundleID = bundleID
        self.originalTransactionID = originalTransactionID
        self.appUserID = appUserID
        self.body = body
    }
}

/// An inbox entry claimed by a worker for one processing attempt.
public struct ClaimedNotification: Sendable {
    /// Inbox id.
    public let id: Int64
    /// Where it came from.
    public let source: InboxSource
    /// The stored JSON body.
    public let body: String
    /// The app's bundle id.
    public let bundleID: String
    /// Production or Sandbox, as stored.
    public let environment: AppStoreEnvironment
    /// The app user to link (receipts).
    public let appUserID: String?
    /// This attempt's number, starting at 1.
    public let attempt: Int
    /// When this attempt was claimed.
    public let claimedAt: Date
    /// When the entry was first stored.
    public let receivedAt: Date
    /// When retention removed the body's receipts (nil: never).
    public var receiptRemovedAt: Date? = nil

    /// A claim as the inbox hands it out (the use cases' tests make their own).
    public init(
        id: Int64, source: InboxSource, body: String, bundleID: String, environment: AppStoreEnvironment, appUserID: String?,
        attempt: Int, claimedAt: Date, receivedAt: Date, receiptRemovedAt: Date? = nil
    ) {
        self.id = id
        self.source = source
        self.body = body
        self.bundleID = bundleID
        self.environment = environment
        self.appUserID = appUserID
        self.attempt = attempt
        self.claimedAt = claimedAt
        self.receivedAt = receivedAt
        self.receiptRemovedAt = receiptRemovedAt
    }
}

/// What storing a notification did.
public enum InboxInsertResult: Sendable, Equatable {
    /// Stored now, with its new id.
    case accepted(id: Int64)
    /// Already stored earlier (a redelivery), with the existing id.
    case duplicate(id: Int64)
}
