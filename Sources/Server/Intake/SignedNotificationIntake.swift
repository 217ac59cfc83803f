import AppStore
import AppStoreSignature
import Foundation
import Logging
import Store
import SubscriptiondCore

/// Turns a version 2 `signedPayload` into an inbox entry, in the contract's order: verify the
/// outer JWS and every nested one, check bundle id, environment and (in Production)
/// `appAppleId`, and only then build the entry to dedupe and store. Nothing unverified is
/// stored, so a forged body carrying a stored `notificationUUID` gets 401, never `duplicate`.
struct SignedNotificationIntake: Sendable {
    let verifier: SignedPayloadVerifier
    let apps: AppRegistry

    /// One message for every verification failure: the reason goes to the log only.
    static let rejection = "the signed payload does not verify for a configured app"

    func draft(signedPayload: String, logger: Logger) async throws(APIError) -> InboxEntryDraft {
        let verified: VerifiedNotificationV2
        do {
            verified = try await verifier.verifyNotification(signedPayload)
        } catch where error.kind == .malformed {
            throw APIError.malformed("signedPayload is not a signed App Store notification (\(error.reason))")
        } catch {
            logger.info("signed notification rejected", metadata: [LogKey.error: "\(error.reason)"])
            throw APIError.unauthorized(Self.rejection)
        }
        let payload = verified.payload
        guard let bundleID = payload.bundleID, let app = apps.app(bundleID: bundleID) else {
            logger.info("signed notification rejected", metadata: [LogKey.error: "unknown bundle id", LogKey.bundleID: "\(payload.bundleID ?? "-")"])
            throw APIError.unauthorized(Self.rejection)
        }
        let environment: AppStoreEnvironment
        do {
            environment = try AppIdentityCheck.resolvedEnvironment(of: payload)
            try AppIdentityCheck.check(verified, bundleID: app.bundleID, appAppleID: app.appAppleID)
        } catch {
            if app.appAppleID == nil && payload.environment == .production {
                logger.warning("a Production v2 notification arrived for an app without app_apple_id: set APPSTORE_APP_APPLE_ID or app_apple_id",
                               metadata: [LogKey.bundleID: "\(bundleID)"])
            }
            logger.info("signed notification rejected", metadata: [LogKey.error: "\(error.reason)", LogKey.bundleID: "\(bundleID)"])
            throw APIError.unauthorized(Self.rejection)
        }
        guard let uuid = payload.notificationUUID, !uuid.isEmpty, uuid.utf8.count <= 64,
              !uuid.unicodeScalars.contains(where: { $0.value < 0x20 })
        else { throw APIError.malformed("the signed notification has no usable notificationUUID") }
        let body = CanonicalJSONWriter.string(.object(["signedPayload": .string(signedPayload)]))
        return InboxEntryDraft(
            source: .v2,
            notificationType: payload.notificationTypeRaw ?? "UNKNOWN",
            subtype: payload.subtypeRaw,
            environment: environment,
            bundleID: app.bundleID,
            originalTransactionID: verified.transaction?.originalTransactionID ?? verified.renewalInfo?.originalTransactionID,
            storedBody: body,
            dedupeKey: "v2:" + uuid
        )
    }
}
