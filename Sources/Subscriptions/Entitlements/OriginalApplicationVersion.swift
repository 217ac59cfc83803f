import AppStore
import Foundation

/// The version of an app a user's Apple account first bought, as Apple vouched for it: a
/// verified receipt's `original_application_version` or a verified AppTransaction's
/// `originalApplicationVersion`.
public struct OriginalApplicationVersion: Sendable, Hashable {
    /// The app.
    public let bundleID: String
    /// Where the proof came from.
    public let environment: AppStoreEnvironment
    /// The version text exactly as Apple wrote it.
    public let version: String

    /// Creates a record.
    public init(bundleID: String, environment: AppStoreEnvironment, version: String) {
        self.bundleID = bundleID
        self.environment = environment
        self.version = version
    }
}
