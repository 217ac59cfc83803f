import AppStore
import AppStoreSignature
import JSON
import Settings
import Store

/// The inbox entry for a version 2 notification whose signatures verified: the app checks
/// (bundle id configured, environment known, `appAppleId` in Production) and the entry's
/// fields, shared by HTTP intake and `notifications backfill`.
public enum SignedNotificationEntry {
    /// Why a verified notification is not taken; `reason` is for logs only.
    public enum Refusal: Error, Sendable, Equatable {
        /// Not for a configured app, or the app identity does not match (401 at intake).
        case notForThisApp(reason: String)
        /// Verified, but without a usable `notificationUUID` (400 at intake).
        case malformed(reason: String)
    }

    /// The entry to store, or the refusal.
    public static func make(_ verified: VerifiedNotificationV2, signedPayload: String, apps: AppRegistry) -> Result<InboxEntry, Refusal> {
        let payload = verified.payload
        guard let bundleID = payload.bundleID, let app = apps.app(bundleID: bundleID) else {
            return .failure(.notForThisApp(reason: "unknown bundle id \(payload.bundleID ?? "-")"))
        }
        let environment: AppStoreEnvironment
        do {
            environment = try AppIdentityCheck.resolvedEnvironment(of: payload)
            try AppIdentityCheck.check(verified, bundleID: app.bundleID, appAppleID: app.appAppleID)
        } catch {
            if app.appAppleID == nil && payload.environment == .production {
                return .failure(
                    .notForThisApp(
                        reason:
                            "a Production notification for \(bundleID), which has no app_apple_id: set APPSTORE_APP_APPLE_ID or app_apple_id"
                    ))
            }
            return .failure(.notForThisApp(reason: "\(error.reason) (\(bundleID))"))
        }
        guard let uuid = payload.notificationUUID, !uuid.isEmpty, uuid.utf8.count <= 64,
            !uuid.unicodeScalars.contains(where: { $0.value < 0x20 })
        else { return .failure(.malformed(reason: "the signed notification has no usable notificationUUID")) }
        // Apple's evidence, as received: stored without its certificate chains (kept once
        // each), which readers put back byte for byte, so it can be verified again at any time.
        let split = SignedPayloadChains.split(signedPayload)
        return .success(
            InboxEntry(
                source: .v2,
                dedupeKey: DedupeKey.v2(notificationUUID: uuid),
                notificationType: payload.notificationTypeRaw ?? "UNKNOWN",
                notificationSubtype: payload.subtypeRaw,
                environment: environment,
                bundleID: app.bundleID,
                originalTransactionID: verified.transaction?.originalTransactionID ?? verified.renewalInfo?.originalTransactionID,
                body: CanonicalJSONWriter.string(.object(["signedPayload": .string(split?.chainless ?? signedPayload)])),
                certificateChains: split?.chains ?? []
            ))
    }
}
