import Foundation
import Store

/// The purchases of the Apple account behind a transaction verified for a user (`AppleAccountReader` in production).
public protocol AppleAccountSource: Sendable {
    func account(appUserID: String, transactionID: String, bundleID: String, now: Date) async throws -> AppleAccountRead?
}
