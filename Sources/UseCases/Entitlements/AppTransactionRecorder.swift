import Access
import AppStore
import AppStoreSignature
import Foundation
import Logging
import Settings
import Store
import StoredAnswers
import Subscriptions

/// `POST /v1/app-transactions`: a StoreKit 2 AppTransaction from the device, verified offline
/// like a signed transaction (chain to a configured root, signature, a configured app), whose
/// original application version is recorded for the user (grandfathering).
public struct AppTransactionRecorder: Sendable {
    private let database: any FactDatabase
    private let answers: ReadAnswers
    private let signatures: SignedPayloadVerifier
    private let apps: AppRegistry

    public init(database: any FactDatabase, answers: ReadAnswers, signatures: SignedPayloadVerifier, apps: AppRegistry) {
        self.database = database
        self.answers = answers
        self.signatures = signatures
        self.apps = apps
    }

    /// Verifies `jws` and records its original application version for `appUserID`;
    /// returns the user's entitlements JSON. Nothing is stored unless all of it verifies.
    public func record(
        signedAppTransaction jws: String, appUserID: String, visibleTo visible: AppScope = .all, logger: Logger
    ) async throws -> String {
        let appTransaction = try await DeviceSignedPayload.appTransaction.verified(
            jws, as: AppTransactionPayload.self, by: signatures, logger: logger)
        guard let bundleID = appTransaction.bundleID, let app = apps.app(bundleID: bundleID),
            (try? AppIdentityCheck.check(appTransaction, bundleID: app.bundleID, appAppleID: app.appAppleID)) != nil,
            let environment = appTransaction.environment
        else {
            throw UseCaseError.signatureRejected("the AppTransaction is not for a configured app")
        }
        guard let version = appTransaction.originalApplicationVersion, !version.isEmpty else {
            throw UseCaseError.signatureRejected("the AppTransaction names no originalApplicationVersion")
        }
        try visible.require(app.bundleID)
        let appTransactionID = appTransaction.appTransactionID
        try await database.transaction { transaction in
            try transaction.recordOriginalVersion(
                OriginalApplicationVersion(bundleID: app.bundleID, environment: environment, version: version),
                appUserID: appUserID, proof: .appTransaction, appTransactionID: appTransactionID)
        }
        guard let body = try await answers.entitlementsBody(appUserID: appUserID) else {
            throw UseCaseError.unavailable("the recorded version is not readable yet; retry")
        }
        return body.body
    }
}
