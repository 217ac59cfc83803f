import Foundation
import Subscriptions

/// Builds the app registry from `SUBSCRIPTIOND_CONFIG` and/or the single-app shortcut
/// (`APPSTORE_BUNDLE_ID` with `APPSTORE_SHARED_SECRET` and/or `APPSTORE_APP_APPLE_ID`).
/// Both sources merge per bundle id; a contradiction stops startup naming both.
enum AppRegistryLoader {
    static func load(_ reader: SettingsReader) throws -> AppRegistry {
        var apps: [AppCredentials] = []
        if let path = reader.string("SUBSCRIPTIOND_CONFIG") {
            apps = try ConfigurationFile.load(path: path)
        }
        let secret = reader.string("APPSTORE_SHARED_SECRET")
        let appleID = try reader.string("APPSTORE_APP_APPLE_ID").map { try AppAppleID.validated($0, setting: "APPSTORE_APP_APPLE_ID") }
        let apiSettings = (
            reader.string("APPSTORE_ISSUER_ID"), reader.string("APPSTORE_KEY_ID"), reader.string("APPSTORE_PRIVATE_KEY_FILE")
        )
        if let bundleID = reader.string("APPSTORE_BUNDLE_ID") {
            let apiKey = try AppStoreAPIKey.optional(
                issuerID: apiSettings.0, keyID: apiSettings.1, privateKeyFile: apiSettings.2, bundleID: bundleID,
                names: ("APPSTORE_ISSUER_ID", "APPSTORE_KEY_ID", "APPSTORE_PRIVATE_KEY_FILE"))
            apps.append(AppCredentials(bundleID: bundleID, sharedSecret: secret.map(Secret.init), appAppleID: appleID, apiKey: apiKey))
        } else if secret != nil {
            throw ConfigurationError("APPSTORE_BUNDLE_ID", "is not set, but APPSTORE_SHARED_SECRET is")
        } else if appleID != nil {
            throw ConfigurationError("APPSTORE_BUNDLE_ID", "is not set, but APPSTORE_APP_APPLE_ID is")
        } else if apiSettings.0 != nil || apiSettings.1 != nil || apiSettings.2 != nil {
            throw ConfigurationError("APPSTORE_BUNDLE_ID", "is not set, but App Store Server API settings (APPSTORE_ISSUER_ID …) are")
        }
        // WEBHOOK_URL / WEBHOOK_SECRET (or WEBHOOK_SECRETS=new,old): every app without a
        // webhook of its own uses them.
        let webhookSecret = reader.string("WEBHOOK_SECRET")
        let webhookSecretList = reader.string("WEBHOOK_SECRETS")
        if webhookSecret != nil && webhookSecretList != nil {
            throw ConfigurationError(
                "WEBHOOK_SECRET", "and WEBHOOK_SECRETS are both set: keep one (WEBHOOK_SECRETS=new,old signs with each during a rotation)")
        }
        let secrets =
            webhookSecret.map { WebhookSecretTexts(setting: "WEBHOOK_SECRET", values: [$0], isList: false) }
            ?? WebhookSecretTexts.commaSeparated(webhookSecretList, setting: "WEBHOOK_SECRETS")
        let defaultWebhook = try WebhookTarget.validated(
            url: reader.string("WEBHOOK_URL"), secrets: secrets, setting: "WEBHOOK_URL", secretSetting: "WEBHOOK_SECRET")
        let registry = AppRegistry(try merged(apps).map { $0.webhook == nil ? $0.with(webhook: defaultWebhook) : $0 })
        guard !registry.isEmpty else {
            throw ConfigurationError(
                "APPSTORE_BUNDLE_ID",
                "is not set: configure at least one app (APPSTORE_BUNDLE_ID with APPSTORE_SHARED_SECRET and/or APPSTORE_APP_APPLE_ID, or SUBSCRIPTIOND_CONFIG)"
            )
        }
        return registry
    }

    /// One entry per bundle id, each field taken from whichever source sets it.
    private static func merged(_ apps: [AppCredentials]) throws -> [AppCredentials] {
        var byBundleID: [String: AppCredentials] = [:]
        var order: [String] = []
        for app in apps {
            guard let earlier = byBundleID[app.bundleID] else {
                byBundleID[app.bundleID] = app
                order.append(app.bundleID)
                continue
            }
            if let a = earlier.sharedSecret, let b = app.sharedSecret, !a.matches(b.revealed) {
                throw ConfigurationError(
                    "APPSTORE_SHARED_SECRET", "and SUBSCRIPTIOND_CONFIG give two different shared secrets for \(app.bundleID)")
            }
            if let a = earlier.appAppleID, let b = app.appAppleID, a != b {
                throw ConfigurationError(
                    "APPSTORE_APP_APPLE_ID",
                    "and SUBSCRIPTIOND_CONFIG give two different app_apple_id values for \(app.bundleID) (\(a), \(b))")
            }
            if let a = earlier.apiKey, let b = app.apiKey, a.keyID != b.keyID || a.issuerID != b.issuerID {
                throw ConfigurationError(
                    "APPSTORE_KEY_ID", "and SUBSCRIPTIOND_CONFIG give two different App Store Server API keys for \(app.bundleID)")
            }
            // Only the configuration file sets policies; the single-app variables have the standard ones.
            byBundleID[app.bundleID] = AppCredentials(
                bundleID: app.bundleID, sharedSecret: earlier.sharedSecret ?? app.sharedSecret,
                appAppleID: earlier.appAppleID ?? app.appAppleID,
                webhook: earlier.webhook ?? app.webhook, apiKey: earlier.apiKey ?? app.apiKey,
                entitlementPolicy: earlier.entitlementPolicy != .standard ? earlier.entitlementPolicy : app.entitlementPolicy,
                linkPolicy: earlier.linkPolicy != .transfer ? earlier.linkPolicy : app.linkPolicy,
                webhookEventTypes: earlier.webhookEventTypes ?? app.webhookEventTypes,
                consumptionPolicy: earlier.consumptionPolicy ?? app.consumptionPolicy,
                xcodeCertificate: earlier.xcodeCertificate ?? app.xcodeCertificate,
                retentionRules: earlier.retentionRules.isEmpty ? app.retentionRules : earlier.retentionRules,
                finishesTransactions: earlier.finishesTransactions || app.finishesTransactions)
        }
        let apps = order.compactMap { byBundleID[$0] }
        // Answering CONSUMPTION_REQUEST needs the App Store Server API key, from either source.
        if let app = apps.first(where: { $0.consumptionPolicy != nil && $0.apiKey == nil }) {
            throw ConfigurationError(
                "SUBSCRIPTIOND_CONFIG",
                "app \(app.bundleID): consumption needs the app's App Store Server API key (issuer_id, key_id, private_key_file, or APPSTORE_ISSUER_ID, APPSTORE_KEY_ID, APPSTORE_PRIVATE_KEY_FILE)"
            )
        }
        // Finish Transaction is an App Store Server API call.
        if let app = apps.first(where: { $0.finishesTransactions && $0.apiKey == nil }) {
            throw ConfigurationError(
                "SUBSCRIPTIOND_CONFIG",
                "app \(app.bundleID): finish_transactions calls the App Store Server API with the app's key (issuer_id, key_id, private_key_file, or APPSTORE_ISSUER_ID, APPSTORE_KEY_ID, APPSTORE_PRIVATE_KEY_FILE)"
            )
        }
        // A retention answer with a promotional offer is signed with the same key.
        if let app = apps.first(where: { !$0.retentionRules.offers.isEmpty && $0.apiKey == nil }) {
            throw ConfigurationError(
                "SUBSCRIPTIOND_CONFIG",
                "app \(app.bundleID): a retention promotional_offer is signed with the app's In-App Purchase key (issuer_id, key_id, private_key_file, or APPSTORE_ISSUER_ID, APPSTORE_KEY_ID, APPSTORE_PRIVATE_KEY_FILE)"
            )
        }
        return apps
    }
}

extension EntitlementPolicies {
    /// The apps' entitlement policies from `SUBSCRIPTIOND_CONFIG` alone (the single-app
    /// variables cannot set one), for tools that need no other setting: the standard policies
    /// when it is unset.
    public static func load(environment: [String: String]) throws -> EntitlementPolicies {
        guard let path = environment["SUBSCRIPTIOND_CONFIG"], !path.isEmpty else { return EntitlementPolicies() }
        let apps = try ConfigurationFile.load(path: path)
        return EntitlementPolicies(Dictionary(apps.map { ($0.bundleID, $0.entitlementPolicy) }, uniquingKeysWith: { first, _ in first }))
    }
}
