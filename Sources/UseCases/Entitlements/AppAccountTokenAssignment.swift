import Access
import AppStore
import Foundation
import Logging
import Store

/// Set App Account Token (App Store Server API 1.16): `PUT
/// /v1/subscriptions/{original_transaction_id}/app-account-token` and `subscriptionctl
/// set-app-account-token`. A purchase made outside the app (an offer code redeemed in the App
/// Store, a purchase on the App Store's page) carries no app account token, so nothing links it
/// to the app's user. This tells Apple the user's token (``AppAccountTokens``) for the
/// purchase, then reads the purchase back from Apple and applies it, so it links exactly as a
/// purchase made with the token in the app would, under the app's link policy.
public struct AppAccountTokenAssignment: Sendable {
    /// What setting the token came to.
    public struct Outcome: Sendable, Equatable {
        /// The user's token, now at Apple on the purchase.
        public let token: String
        /// The purchase's app and environment.
        public let bundleID: String
        public let environment: AppStoreEnvironment
    }

    private let tokens: AppAccountTokens
    private let sync: SubscriptionSync
    private let evidence: AppleEvidence
    private let logger: Logger

    public init(tokens: AppAccountTokens, sync: SubscriptionSync, evidence: AppleEvidence, logger: Logger) {
        self.tokens = tokens
        self.sync = sync
        self.evidence = evidence
        self.logger = logger
    }

    /// Sets `appUserID`'s token on the stored subscription `originalTransactionID` at Apple,
    /// then applies what Apple says of the purchase now (which links it to the user).
    public func assign(originalTransactionID: String, appUserID: String, by principal: Principal) async throws -> Outcome {
        guard principal.may(.write) else { throw UseCaseError.forbidden("setting an app account token needs the write scope") }
        let user = appUserID.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !user.isEmpty, user.utf8.count <= 512 else { throw UseCaseError.malformed("app_user_id must be 1 to 512 bytes") }
        guard let target = try await sync.targets([originalTransactionID]).first(where: { principal.sees($0.bundleID) }) else {
            throw UseCaseError.notFound(
                "no stored subscription \(originalTransactionID) of an app with an App Store Server API key"
                    + " (a purchase subscriptiond has not seen yet: POST /v1/transactions first)")
        }
        let token = try await tokens.token(for: user, bundleID: target.bundleID, visibleTo: principal.apps)
        try await evidence.setAppAccountToken(
            originalTransactionID: originalTransactionID, token: token, bundleID: target.bundleID, environment: target.environment,
            logger: logger)
        if let failure = await sync.sync(target) {
            throw UseCaseError.unavailable(
                "Apple took the app account token, but reading the purchase back failed (\(failure)); it links with the next notification or sync"
            )
        }
        return Outcome(token: token, bundleID: target.bundleID, environment: target.environment)
    }
}
