import AppStore
import Foundation
import Store

/// The purchases of Apple accounts (`AppleAccountReader` in production).
public protocol AppleAccountSource: Sendable {
    /// The account behind a transaction verified for a user.
    func account(appUserID: String, transactionID: String, bundleID: String, now: Date) async throws -> AppleAccountRead?
    /// The account behind an original transaction Apple named in a signed request, with its app.
    func account(
        environment: AppStoreEnvironment, originalTransactionID: String, now: Date
    ) async throws -> (bundleID: String, read: AppleAccountRead)?
}
