import AppStoreSignature
import Foundation
import Subscriptions

/// The `SUBSCRIPTIOND_CONFIG` file:
/// `{"apps":[{"bundle_id", "shared_secret" or "shared_secret_file", "app_apple_id", "webhook_url", "webhook_secret"
/// or "webhook_secrets": ["new", "old"] or "webhook_secret_file", "issuer_id", "key_id", "private_key_file", "grandfather": {"before_version", "entitlement"},
/// "sandbox_entitlement": "grant" or "ignore", "link_policy": "transfer", "share" or "refuse",
/// "webhook_event_types": ["expired", ...], "consumption": {"refund_preference", "delivery_status",
/// "sample_content_provided"}, "xcode_certificate_file", "small_business_program": [{"from", "until"}],
/// "retention": [{"match": {...}, "message" | "alternate_product" | "promotional_offer": {...}}], "finish_transactions": true}],
/// "tax_rates": {"DEU": 0.19}}` (the money settings are read by `MoneySettings`).
struct ConfigurationFile: Decodable {
    struct App: Decodable {
        let bundleID: String
        let sharedSecret: String?
        let sharedSecretFile: String?
        let appAppleID: String?
        let webhookURL: String?
        let webhookSecret: String?
        let webhookSecrets: [String]?
        let webhookSecretFile: String?
        let issuerID: String?
        let keyID: String?
        let privateKeyFile: String?
        let grandfather: Grandfather?
        let sandboxEntitlement: String?
        let linkPolicy: String?
        let webhookEventTypes: [String]?
        let consumption: Consumption?
        let xcodeCertificateFile: String?
        let retention: [RetentionRuleEntry]?
        let finishTransactions: Bool?

        /// `{"refund_preference": "DECLINE", "delivery_status": "DELIVERED", "sample_content_provided": false}`.
        struct Consumption: Decodable {
            let refundPreference: String?
            let deliveryStatus: String?
            let sampleContentProvided: Bool?

            enum CodingKeys: String, CodingKey, CaseIterable {
                case refundPreference = "refund_preference", deliveryStatus = "delivery_status"
                case sampleContentProvided = "sample_content_provided"
            }
        }

        /// `{"before_version": "2.0", "entitlement": "pro"}`.
        struct Grandfather: Decodable {
            let beforeVersion: String
            let entitlement: String

            enum CodingKeys: String, CodingKey, CaseIterable {
                case beforeVersion = "before_version", entitlement
            }
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case bundleID = "bundle_id", sharedSecret = "shared_secret", sharedSecretFile = "shared_secret_file"
            case appAppleID = "app_apple_id", webhookURL = "webhook_url", webhookSecret = "webhook_secret"
            case webhookSecrets = "webhook_secrets", webhookSecretFile = "webhook_secret_file"
            case issuerID = "issuer_id", keyID = "key_id", privateKeyFile = "private_key_file"
            case grandfather, sandboxEntitlement = "sandbox_entitlement", linkPolicy = "link_policy"
            case webhookEventTypes = "webhook_event_types", consumption, xcodeCertificateFile = "xcode_certificate_file"
            case retention, finishTransactions = "finish_transactions"
            // Read by `MoneySettings`.
            case smallBusinessProgram = "small_business_program"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            bundleID = try container.decode(String.self, forKey: .bundleID)
            sharedSecret = try container.decodeIfPresent(String.self, forKey: .sharedSecret)
            sharedSecretFile = try container.decodeIfPresent(String.self, forKey: .sharedSecretFile)
            webhookURL = try container.decodeIfPresent(String.self, forKey: .webhookURL)
            webhookSecret = try container.decodeIfPresent(String.self, forKey: .webhookSecret)
            webhookSecrets = try container.decodeIfPresent([String].self, forKey: .webhookSecrets)
            webhookSecretFile = try container.decodeIfPresent(String.self, forKey: .webhookSecretFile)
            issuerID = try container.decodeIfPresent(String.self, forKey: .issuerID)
            keyID = try container.decodeIfPresent(String.self, forKey: .keyID)
            privateKeyFile = try container.decodeIfPresent(String.self, forKey: .privateKeyFile)
            grandfather = try container.decodeIfPresent(Grandfather.self, forKey: .grandfather)
            sandboxEntitlement = try container.decodeIfPresent(String.self, forKey: .sandboxEntitlement)
            linkPolicy = try container.decodeIfPresent(String.self, forKey: .linkPolicy)
            webhookEventTypes = try container.decodeIfPresent([String].self, forKey: .webhookEventTypes)
            consumption = try container.decodeIfPresent(Consumption.self, forKey: .consumption)
            xcodeCertificateFile = try container.decodeIfPresent(String.self, forKey: .xcodeCertificateFile)
            retention = try container.decodeIfPresent([RetentionRuleEntry].self, forKey: .retention)
            finishTransactions = try container.decodeIfPresent(Bool.self, forKey: .finishTransactions)
            // App Store Connect shows the Apple ID as a number; accept it as one or as text.
            if let number = try? container.decodeIfPresent(UInt64.self, forKey: .appAppleID) {
                appAppleID = String(number)
            } else {
                appAppleID = try container.decodeIfPresent(String.self, forKey: .appAppleID)
            }
        }
    }

    let apps: [App]

    /// Reads and validates the file, resolving `shared_secret_file` entries. An unknown key
    /// stops startup naming it and the nearest known key; other mistakes name their place.
    static func load(path: String) throws -> [AppCredentials] {
        let setting = "SUBSCRIPTIOND_CONFIG"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(setting, "names \(path), which cannot be read")
        }
        if let problem = ConfigurationFileCheck.unknownKey(in: data) {
            throw ConfigurationError(setting, "file \(path): \(problem)")
        }
        let file: ConfigurationFile
        do {
            file = try JSONDecoder().decode(ConfigurationFile.self, from: data)
        } catch let error as DecodingError {
            throw ConfigurationError(setting, "file \(path): \(ConfigurationFileCheck.describe(error))")
        } catch {
            throw ConfigurationError(setting, "file \(path) cannot be read as JSON (\(error))")
        }
        return try file.apps.map { app in
            guard !app.bundleID.isEmpty else { throw ConfigurationError(setting, "has an app with an empty bundle_id") }
            let appleID = try app.appAppleID.map { try AppAppleID.validated($0, setting: setting) }
            let webhook = try WebhookTarget.validated(
                url: app.webhookURL, secrets: try webhookSecrets(app, setting: setting),
                setting: "\(setting) webhook_url of \(app.bundleID)", secretSetting: "\(setting) webhook_secret of \(app.bundleID)")
            let apiKey = try AppStoreAPIKey.optional(
                issuerID: app.issuerID, keyID: app.keyID, privateKeyFile: app.privateKeyFile, bundleID: app.bundleID,
                names: (
                    "\(setting) issuer_id of \(app.bundleID)", "\(setting) key_id of \(app.bundleID)",
                    "\(setting) private_key_file of \(app.bundleID)"
                ))
            let base = try credentials(app, appleID: appleID, setting: setting)
            return AppCredentials(
                bundleID: base.bundleID, sharedSecret: base.sharedSecret, appAppleID: base.appAppleID, webhook: webhook, apiKey: apiKey,
                entitlementPolicy: try entitlementPolicy(app, setting: setting), linkPolicy: try linkPolicy(app, setting: setting),
                webhookEventTypes: try webhookEventTypes(app, setting: setting),
                consumptionPolicy: try consumptionPolicy(app, setting: setting),
                xcodeCertificate: try app.xcodeCertificateFile.map {
                    try XcodeCertificateFile.load($0, setting: "\(setting) xcode_certificate_file of \(app.bundleID)")
                },
                retentionRules: try retentionRules(app, setting: setting), finishesTransactions: app.finishTransactions ?? false)
        }
    }

    /// `text` as one of `Value`'s cases, or an error naming the app, the key and the choices.
    private static func oneOf<Value: RawRepresentable & CaseIterable>(
        _ text: String, key: String, app: App, setting: String
    ) throws -> Value where Value.RawValue == String {
        guard let value = Value(rawValue: text) else {
            throw ConfigurationError(
                setting,
                "app \(app.bundleID): \(key) must be one of \(Value.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
        }
        return value
    }

    /// The app's `consumption` answers, checked (nil when absent: CONSUMPTION_REQUEST is only
    /// recorded; answering also needs the API key, checked once both sources are merged).
    private static func consumptionPolicy(_ app: App, setting: String) throws -> ConsumptionPolicy? {
        guard let consumption = app.consumption else { return nil }
        var policy = ConsumptionPolicy()
        if let text = consumption.refundPreference {
            policy.refundPreference = try oneOf(text, key: "consumption.refund_preference", app: app, setting: setting)
        }
        if let text = consumption.deliveryStatus {
            policy.deliveryStatus = try oneOf(text, key: "consumption.delivery_status", app: app, setting: setting)
        }
        policy.sampleContentProvided = consumption.sampleContentProvided ?? false
        return policy
    }

    /// The app's `retention` rules, each checked (none when absent: Apple shows its default message).
    private static func retentionRules(_ app: App, setting: String) throws -> RetentionRules {
        let entries = app.retention ?? []
        return RetentionRules(
            try entries.enumerated().map { index, entry in try entry.rule(bundleID: app.bundleID, index: index, setting: setting) })
    }

    /// The app's webhook secrets: `webhook_secret`, `webhook_secrets` or `webhook_secret_file`,
    /// at most one of them (nil when none is set).
    private static func webhookSecrets(_ app: App, setting: String) throws -> WebhookSecretTexts? {
        let given = [
            ("webhook_secret", app.webhookSecret != nil), ("webhook_secrets", app.webhookSecrets != nil),
            ("webhook_secret_file", app.webhookSecretFile != nil),
        ].filter(\.1).map(\.0)
        guard given.count <= 1 else {
            throw ConfigurationError(
                setting,
                "app \(app.bundleID) sets both \(given[0]) and \(given[1]): keep one (webhook_secrets: [new, old] signs with each during a rotation)"
            )
        }
        func named(_ key: String) -> String { "\(setting) \(key) of \(app.bundleID)" }
        if let secret = app.webhookSecret { return WebhookSecretTexts(setting: named("webhook_secret"), values: [secret], isList: false) }
        if let secrets = app.webhookSecrets { return WebhookSecretTexts(setting: named("webhook_secrets"), values: secrets, isList: true) }
        return try WebhookSecretTexts.file(app.webhookSecretFile, setting: named("webhook_secret_file"))
    }

    /// The app's `webhook_event_types`, checked (nil when absent: every type).
    private static func webhookEventTypes(_ app: App, setting: String) throws -> Set<LifecycleEvent.Kind>? {
        try app.webhookEventTypes.map { names in
            try Set(
                names.map { name in
                    guard let kind = LifecycleEvent.Kind(rawValue: name) else {
                        throw ConfigurationError(
                            setting,
                            "app \(app.bundleID): webhook_event_types names '\(name)', which is not an event type (\(LifecycleEvent.Kind.allCases.map(\.rawValue).joined(separator: ", ")))"
                        )
                    }
                    return kind
                })
        }
    }

    /// The app's `link_policy`, checked (`transfer` when absent).
    private static func linkPolicy(_ app: App, setting: String) throws -> LinkPolicy {
        guard let text = app.linkPolicy else { return .transfer }
        guard let policy = LinkPolicy(rawValue: text) else {
            throw ConfigurationError(
                setting, "app \(app.bundleID): link_policy must be \"transfer\", \"share\" or \"refuse\", got '\(text)'")
        }
        return policy
    }

    /// The app's `grandfather` and `sandbox_entitlement`, checked.
    private static func entitlementPolicy(_ app: App, setting: String) throws -> EntitlementPolicy {
        var grandfather: EntitlementPolicy.Grandfather?
        if let rule = app.grandfather {
            guard let line = DottedVersion(rule.beforeVersion) else {
                throw ConfigurationError(
                    setting,
                    "app \(app.bundleID): grandfather.before_version must be a dotted version such as \"2.0\", got '\(rule.beforeVersion)'")
            }
            guard !rule.entitlement.isEmpty else {
                throw ConfigurationError(setting, "app \(app.bundleID): grandfather.entitlement is empty")
            }
            grandfather = EntitlementPolicy.Grandfather(beforeVersion: line, entitlement: rule.entitlement)
        }
        let sandbox =
            try app.sandboxEntitlement.map { text in
                guard let value = EntitlementPolicy.SandboxEntitlement(rawValue: text) else {
                    throw ConfigurationError(
                        setting, "app \(app.bundleID): sandbox_entitlement must be \"grant\" or \"ignore\", got '\(text)'")
                }
                return value
            } ?? .grant
        return EntitlementPolicy(grandfather: grandfather, sandboxEntitlement: sandbox, xcodeEntitlement: app.xcodeCertificateFile != nil)
    }

    private static func credentials(_ app: App, appleID: String?, setting: String) throws -> AppCredentials {
        switch (app.sharedSecret, app.sharedSecretFile) {
        case (let secret?, nil):
            guard !secret.isEmpty else { throw ConfigurationError(setting, "app \(app.bundleID) has an empty shared_secret") }
            return AppCredentials(bundleID: app.bundleID, sharedSecret: Secret(secret), appAppleID: appleID)
        case (nil, let secretPath?):
            let contents = try SecretFile.read(secretPath, setting: "\(setting) shared_secret_file of \(app.bundleID)")
            guard let secret = String(data: contents, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
                !secret.isEmpty
            else { throw ConfigurationError(setting, "app \(app.bundleID): shared_secret_file \(secretPath) cannot be read or is empty") }
            return AppCredentials(bundleID: app.bundleID, sharedSecret: Secret(secret), appAppleID: appleID)
        case (_?, _?):
            throw ConfigurationError(setting, "app \(app.bundleID) sets both shared_secret and shared_secret_file")
        case (nil, nil):
            // A version 2 app: signed payloads need no secret.
            return AppCredentials(bundleID: app.bundleID, sharedSecret: nil, appAppleID: appleID)
        }
    }
}
