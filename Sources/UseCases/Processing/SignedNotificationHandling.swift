import AppStore
import AppStoreSignature

/// The worker's handling of each version 2 notification type: the one place a type gets
/// behaviour of its own.
///
/// Every type's own facts (the transaction and renewal info it carries) are applied first,
/// whatever the type; the table then says whether what Apple says now is fetched as well
/// (with an API key) and what the attempt records. A type that needs more (answering a
/// CONSUMPTION_REQUEST, acting on a RENEWAL_EXTENSION summary) gets its entry here.
struct SignedNotificationHandling: Sendable {
    /// Whether the subscription is also re-read from the App Store Server API.
    let reconciles: Bool
    /// What the attempt records about a notification that carries no transaction.
    let noteWithoutFacts: @Sendable (VerifiedNotificationV2) -> String

    /// The handling of `type` (nil: a type this version does not know).
    static func of(_ type: NotificationV2Type?) -> SignedNotificationHandling {
        type.flatMap { table[$0] } ?? .facts
    }

    /// Facts, reconciled with the API: what a subscription event needs.
    static let facts = SignedNotificationHandling(reconciles: true) { verified in
        "\(verified.payload.notificationTypeRaw ?? "notification") carries no transaction: recorded"
    }

    private static let table: [NotificationV2Type: SignedNotificationHandling] = [
        .test: SignedNotificationHandling(reconciles: false) { _ in
            "TEST: Apple's test notification arrived; recorded"
        },
        .renewalExtension: SignedNotificationHandling(reconciles: false) { verified in
            let summary = verified.payload.summary
            return "RENEWAL_EXTENSION summary of request \(summary?.requestIdentifier ?? "-"): "
                + "\(summary?.succeededCount.map(String.init) ?? "?") extended, \(summary?.failedCount.map(String.init) ?? "?") failed; "
                + "each extended subscription arrives as its own RENEWAL_EXTENDED: recorded"
        },
        .externalPurchaseToken: SignedNotificationHandling(reconciles: false) { _ in
            "EXTERNAL_PURCHASE_TOKEN: no App Store purchase to apply; recorded"
        },
    ]
}
