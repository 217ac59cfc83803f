import AppStore
import AppStoreSignature
import Foundation

extension AppStoreAPIClient {
    /// Decodes an answer's JSON; anything unreadable is `.malformedAnswer` (retry a few times).
    func decodeJSON<Wire: Decodable>(
        _ type: Wire.Type, _ body: [UInt8], in environment: AppStoreEnvironment
    ) throws(AppStoreAPIError) -> Wire {
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch {
            throw .malformedAnswer(environment: environment)
        }
    }

    /// An answer whose signature did not verify is untrusted, unless it could not be checked
    /// now (online checks on, a revocation responder silent): then try again later.
    private static func unverified(_ error: SignedPayloadError, in environment: AppStoreEnvironment, what: String) -> AppStoreAPIError {
        error.kind == .unavailable
            ? .unavailable(environment: environment, reason: "\(what): \(error.reason)")
            : .untrustedAnswer(environment: environment, reason: "\(what): \(error.reason)")
    }

    /// Verifies a signed transaction and checks it belongs to this app and `environment`.
    func verifiedTransaction(_ jws: String?, in environment: AppStoreEnvironment) async throws(AppStoreAPIError) -> JWSTransactionPayload {
        guard let jws else { throw .malformedAnswer(environment: environment) }
        do {
            let transaction = try await verifier.verifyTransaction(jws)
            try AppIdentityCheck.check(transaction, bundleID: bundleID, environment: environment)
            return transaction
        } catch {
            throw Self.unverified(error, in: environment, what: "transaction")
        }
    }

    /// Verifies a signed renewal info and checks its environment when it names one.
    func verifiedRenewalInfo(_ jws: String, in environment: AppStoreEnvironment) async throws(AppStoreAPIError) -> JWSRenewalInfoPayload {
        let renewal: JWSRenewalInfoPayload
        do {
            renewal = try await verifier.verifyRenewalInfo(jws)
        } catch {
            throw Self.unverified(error, in: environment, what: "renewal info")
        }
        if let raw = renewal.environmentRaw, AppStoreEnvironment(appleValue: raw) != environment {
            throw .untrustedAnswer(environment: environment, reason: "renewal info: unknown or other environment")
        }
        return renewal
    }

    /// Verifies a signed AppTransaction and checks it belongs to this app and `environment`.
    func verifiedAppTransaction(_ jws: String?, in environment: AppStoreEnvironment) async throws(AppStoreAPIError) -> AppTransactionPayload
    {
        guard let jws else { throw .malformedAnswer(environment: environment) }
        let appTransaction: AppTransactionPayload
        do {
            appTransaction = try await verifier.verify(jws, as: AppTransactionPayload.self)
        } catch {
            throw Self.unverified(error, in: environment, what: "app transaction")
        }
        guard appTransaction.bundleID == bundleID, appTransaction.environment == environment else {
            throw .untrustedAnswer(environment: environment, reason: "app transaction: another app or environment")
        }
        return appTransaction
    }

    /// Verifies a signed notification (and its nested items) and checks it names this app
    /// and `environment`. The app's Apple id is left to intake, which knows it.
    func verifiedNotification(
        _ signedPayload: String?, in environment: AppStoreEnvironment
    ) async throws(AppStoreAPIError) -> VerifiedNotificationV2 {
        guard let signedPayload else { throw .malformedAnswer(environment: environment) }
        let notification: VerifiedNotificationV2
        do {
            notification = try await verifier.verifyNotification(signedPayload)
        } catch {
            throw Self.unverified(error, in: environment, what: "notification")
        }
        guard notification.payload.bundleID == bundleID,
            (try? AppIdentityCheck.resolvedEnvironment(of: notification.payload)) == environment
        else {
            throw .untrustedAnswer(environment: environment, reason: "notification: another app or environment")
        }
        if let transaction = notification.transaction {
            do {
                try AppIdentityCheck.check(transaction, bundleID: bundleID, environment: environment)
            } catch {
                throw .untrustedAnswer(environment: environment, reason: "notification transaction: \(error.reason)")
            }
        }
        return notification
    }
}
