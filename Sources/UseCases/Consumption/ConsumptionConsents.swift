import Foundation
import Store

/// `PUT /v1/subscribers/{app_user_id}/consent`: whether an app user consents to sharing
/// consumption data with Apple when they ask for a refund. Without a consenting user, a
/// purchase's CONSUMPTION_REQUEST is never answered (Apple refuses such an answer anyway).
public struct ConsumptionConsents: Sendable {
    private let store: any ConsentRepository

    /// Records consents in `store`.
    public init(store: any ConsentRepository) {
        self.store = store
    }

    /// Records `consented` for `appUserID` (withdrawing is `false`); returns when.
    public func set(appUserID: String, consented: Bool, actor: String) async throws -> Date {
        try await store.setConsent(appUserID: appUserID, consented: consented, actor: actor)
    }
}
