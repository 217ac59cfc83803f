import AppStore
import Foundation
import Postgres
import Subscriptions

/// `original_application_versions`: the version of each app a user's Apple account first
/// bought, as Apple vouched for it, for grandfathering.
public enum OriginalVersionStore {
    /// What vouched for a version.
    public enum Proof: String, Sendable {
        /// A verified receipt's `original_application_version`.
        case receipt
        /// A verified AppTransaction's `originalApplicationVersion`.
        case appTransaction = "app_transaction"
    }

    /// Records `version` for `appUserID`, replacing the one of the same app and environment,
    /// inside the caller's transaction (a receipt's facts and its version land together); a
    /// version that changed marks the user's entitlements for review (grandfathering may follow it).
    public static func record(
        _ version: OriginalApplicationVersion, appUserID: String, proof: Proof, appTransactionID: String? = nil, in session: PostgresSession
    ) throws {
        let changed = try session.execute(
            PostgresQuery(
                """
                INSERT INTO original_application_versions AS v (app_user_id, bundle_id, environment, version, app_transaction_id, proof)
                VALUES (\(appUserID), \(version.bundleID), \(version.environment.rawValue), \(version.version), \(appTransactionID), \(proof.rawValue))
                ON CONFLICT (app_user_id, bundle_id, environment) DO UPDATE SET
                    version = EXCLUDED.version, app_transaction_id = coalesce(EXCLUDED.app_transaction_id, v.app_transaction_id),
                    proof = EXCLUDED.proof, recorded_at = now()
                WHERE (v.version, v.app_transaction_id, v.proof) IS DISTINCT FROM
                      (EXCLUDED.version, coalesce(EXCLUDED.app_transaction_id, v.app_transaction_id), EXCLUDED.proof)
                """
            ).prepared())
        if changed > 0 { try EntitlementReviews.markDue(appUserIDs: [appUserID], in: session) }
    }
}
