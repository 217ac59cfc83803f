import AppStore
import AppStoreSignature
import Foundation
import Intake
import Logging
import ServiceSupport
import Settings
import Store

/// Turns a version 2 `signedPayload` into an inbox entry, in the contract's order: verify the
/// outer JWS and every nested one, check bundle id, environment and (in Production)
/// `appAppleId`, and only then build the entry to dedupe and store. Nothing unverified is
/// stored, so a forged body carrying a stored `notificationUUID` gets 401, never `duplicate`.
/// A verified notification older than Apple can deliver is refused too (``NotificationFreshness``).
struct SignedNotificationIntake: Sendable {
    let verifier: SignedPayloadVerifier
    let apps: AppRegistry
    /// How old a notification may be, and the clock its age is judged by.
    let freshness: NotificationFreshness
    let now: @Sendable () -> Date

    /// One message for every verification failure: the reason goes to the log only.
    static let rejection = "the signed payload does not verify for a configured app"
    /// Online checks on and a revocation responder silent: nothing is stored, Apple retries.
    static let uncheckable = "the signed payload cannot be checked now (an OCSP responder did not answer); try again"

    func entry(signedPayload: String, logger: Logger) async throws(APIError) -> InboxEntry {
        let verified: VerifiedNotificationV2
        do {
            verified = try await verifier.verifyNotification(signedPayload)
        } catch  where error.kind == .malformed {
            throw APIError.malformed("signedPayload is not a signed App Store notification (\(error.reason))")
        } catch  where error.kind == .unavailable {
            logger.warning("signed notification not checkable now", metadata: [LogKey.error: "\(error.reason)"])
            throw APIError.unavailable(Self.uncheckable)
        } catch {
            logger.info("signed notification rejected", metadata: [LogKey.error: "\(error.reason)"])
            throw APIError.unauthorized(Self.rejection)
        }
        guard freshness.isDeliverable(signedDate: verified.payload.signedDate, now: now()) else {
            logger.info("signed notification rejected", metadata: [LogKey.error: "signedDate older than Apple delivers"])
            throw APIError.unauthorized(freshness.refusal)
        }
        switch SignedNotificationEntry.make(verified, signedPayload: signedPayload, apps: apps) {
        case .success(let entry):
            return entry
        case .failure(.notForThisApp(let reason)):
            logger.info("signed notification rejected", metadata: [LogKey.error: "\(reason)"])
            throw APIError.unauthorized(Self.rejection)
        case .failure(.malformed(let reason)):
            throw APIError.malformed(reason)
        }
    }
}
