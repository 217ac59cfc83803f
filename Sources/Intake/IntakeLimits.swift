import AppStore
import Foundation

/// Bounds on the identifiers a notification body may carry, checked before it is stored:
/// Apple's ids are short decimal strings and bundle ids are reverse-DNS names, so anything
/// far longer is malformed — and would not fit the inbox's indexes.
enum IntakeLimits {
    /// The longest `original_transaction_id` / `transaction_id` accepted.
    static let maximumIDLength = 64
    /// The longest bundle id accepted (App Store Connect allows 155 characters).
    static let maximumBundleIDLength = 255

    /// Throws 400 naming the first identifier that is too long or holds a control character.
    static func check(_ notification: NotificationV1) throws(IntakeRefusal) {
        if let bundleID = notification.bundleID { try check(bundleID, field: "bid", limit: maximumBundleIDLength) }
        for id in notification.originalTransactionIDs {
            try check(id, field: "original_transaction_id", limit: maximumIDLength)
        }
        for transaction in notification.allTransactions {
            try check(transaction.transactionID, field: "transaction_id", limit: maximumIDLength)
        }
    }

    private static func check(_ value: String, field: String, limit: Int) throws(IntakeRefusal) {
        guard value.utf8.count <= limit else { throw IntakeRefusal.malformed("\(field) is longer than \(limit) characters") }
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw IntakeRefusal.malformed("\(field) contains a control character")
        }
    }

    /// True when canonical JSON bytes hold an escaped NUL (`\u0000` not itself escaped).
    static func containsNUL(_ canonical: some Collection<UInt8>) -> Bool {
        let pattern = Array("u0000".utf8)
        var index = canonical.startIndex
        while index != canonical.endIndex {
            guard canonical[index] == UInt8(ascii: "\\") else {
                canonical.formIndex(after: &index)
                continue
            }
            // An escape: `\u0000` is the NUL; any other escape (`\\` included) is skipped whole.
            let escape = canonical[canonical.index(after: index)...].prefix(5)
            if escape.elementsEqual(pattern) { return true }
            index = canonical.index(index, offsetBy: 2, limitedBy: canonical.endIndex) ?? canonical.endIndex
        }
        return false
    }
}
