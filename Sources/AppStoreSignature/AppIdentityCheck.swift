import AppStore

/// Checks that verified data belongs to one configured app, as Apple's library does.
///
/// Separate from signature verification so intake can apply it per configured app: the
/// bundle id must match, the environment must be Sandbox or Production, and in Production
/// the app's Apple id must be configured and equal.
public enum AppIdentityCheck {
    /// Accepts `notification` for the app `bundleID` / `appAppleID`, or throws a rejection.
    public static func check(_ notification: VerifiedNotificationV2, bundleID: String, appAppleID: String?) throws(SignedPayloadError) {
        let payload = notification.payload
        guard payload.bundleID == bundleID else { throw .app }
        let environment = try resolvedEnvironment(of: payload)
        if environment == .production {
            guard let appAppleID, payload.appAppleID == appAppleID else { throw .app }
        }
        if let transaction = notification.transaction {
            try check(transaction, bundleID: bundleID, environment: environment)
        }
        if let renewal = notification.renewalInfo, let raw = renewal.environmentRaw,
            AppStoreEnvironment(appleValue: raw) != environment
        {
            throw .environment
        }
        if let appTransaction = notification.appTransaction {
            guard appTransaction.bundleID == bundleID else { throw .app }
            guard appTransaction.environment == environment else { throw .environment }
        }
    }

    /// Accepts a verified transaction for `bundleID`, optionally in `environment`.
    public static func check(
        _ transaction: JWSTransactionPayload, bundleID: String, environment: AppStoreEnvironment?
    ) throws(SignedPayloadError) {
        guard transaction.bundleID == bundleID else { throw .app }
        guard let actual = transaction.environment else { throw .environment }
        if let environment, actual != environment { throw .environment }
    }

    /// Checks a verified AppTransaction against one configured app: its bundle id, a known
    /// environment, and in Production the app's Apple ID (when configured: the app sent it).
    public static func check(_ appTransaction: AppTransactionPayload, bundleID: String, appAppleID: String?) throws(SignedPayloadError) {
        guard appTransaction.bundleID == bundleID else { throw .app }
        guard let environment = appTransaction.environment else { throw .environment }
        if environment == .production, let appAppleID, appTransaction.appAppleID != appAppleID { throw .app }
    }

    /// The environment of a payload; external purchase tokens carry it in their id prefix.
    public static func resolvedEnvironment(of payload: NotificationV2Payload) throws(SignedPayloadError) -> AppStoreEnvironment {
        if let environment = payload.environment { return environment }
        if let token = payload.externalPurchaseToken?.externalPurchaseID {
            return token.hasPrefix("SANDBOX") ? .sandbox : .production
        }
        throw .environment
    }
}
