import Access
import ArgumentParser
import Composition
import ContractDocuments
import Foundation
import Settings
import UseCases

/// `subscriptionctl keys create/list/revoke`: the query API's keys, each with its scopes
/// and apps; every change is audited under the operating system user.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make, list and revoke API keys (scopes: read, write, offers, reports, admin).",
        subcommands: [KeysCreateCommand.self, KeysListCommand.self, KeysRevokeCommand.self]
    )
}

/// `subscriptionctl keys create NAME --scope S[,S...] [--app BUNDLE_ID]... [--expires DATE]`.
struct KeysCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Make a key and print it once (only its hash is stored).",
        discussion: """
            The key alone goes to stdout, so a script can keep it: KEY=$(subscriptionctl keys create …). \
            Scopes: read (subscribers, subscriptions, entitlements, eligibility without signing), write \
            (read + receipts, transactions, app transactions, consent), offers (read + signing), reports, \
            admin (everything). --app limits the key to those apps (repeat it); without it the key sees \
            every app. Exit 2 for an unknown scope, an app that is not configured or a malformed date, \
            1 for a name in use.

            Example:
              subscriptionctl keys create paywall --scope read --app com.example.app
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The key's name, shown in logs, metrics and the audit log (letters, digits, . _ -).")
    var name: String

    @Option(help: "What the key may do: read, write, offers, reports, admin (comma-separated).")
    var scope: String

    @Option(help: ArgumentHelp("Limit the key to this app (repeatable); every app without it.", valueName: "bundle-id"))
    var app: [String] = []

    @Option(help: "When the key stops working (RFC 3339 time, or a date: its midnight UTC); never without it.")
    var expires: String?

    func run() async throws {
        let scopes: Set<Scope>
        switch Scope.parseList(scope) {
        case .success(let parsed): scopes = parsed
        case .failure(let unknown): throw ValidationError(unknown.description)
        }
        let expiresAt = try expires.map { text in
            guard let date = RFC3339.parse(text) else {
                throw ValidationError("--expires must be an RFC 3339 time or a date such as 2027-01-31, got \(text)")
            }
            return date
        }
        let configuredApps = try app.isEmpty ? [] : Self.configuredApps()
        try await CommandExecution.withDatabase(options) { context in
            let created = try await ManualChange.refusing {
                try await context.apiKeys(configuredApps: configuredApps).create(
                    name: name, scopes: scopes, apps: app, expiresAt: expiresAt, by: ManualChange.principal)
            }
            if options.json {
                try Output.json(APIKeyDocument(created.record, key: created.text))
            } else {
                Output.line(created.text)
                Output.error(
                    "key \(name) (\(APIKeyDocument.scopesText(created.record.scopes)); \(APIKeyDocument.appsText(created.record.apps))) "
                        + "made: keep it now, it is not shown again")
            }
        }
    }

    /// The bundle ids of the deployment's apps (SUBSCRIPTIOND_CONFIG and the single-app variables).
    private static func configuredApps() throws -> Set<String> {
        do {
            return Set(try ServiceConfiguration.load(environment: ProcessInfo.processInfo.environment).apps.bundleIDs)
        } catch {
            throw CommandFailure.usage("--app needs the deployment's apps, but its settings do not load: \(FailureReport(error).message)")
        }
    }
}

/// `subscriptionctl keys list`.
struct KeysListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List every key: name, scopes, apps, created, last used, expires, state.",
        discussion: """
            Last use is written about once a minute by each process, not per request.
            """
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let keys = try await context.apiKeys(configuredApps: []).list()
            if options.json {
                try Output.json(keys.map { APIKeyDocument($0, key: nil) })
                return
            }
            guard !keys.isEmpty else {
                Output.line("no keys (ADMIN_TOKEN, when set, works as admin-token)")
                return
            }
            let now = Date()
            var table = Table("NAME", "SCOPES", "APPS", "CREATED", "LAST USED", "EXPIRES", "STATE")
            for key in keys {
                table.append([
                    key.name, APIKeyDocument.scopesText(key.scopes), APIKeyDocument.appsText(key.apps), TimeText.utc(key.createdAt),
                    key.lastUsedAt.map { TimeText.utc($0) } ?? "never", key.expiresAt.map { TimeText.utc($0) } ?? "never",
                    APIKeyDocument.state(of: key, at: now),
                ])
            }
            Output.line(table.render())
        }
    }
}

/// `subscriptionctl keys revoke NAME`.
struct KeysRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke a key: every process refuses it within about a second (exit 1 for an unknown name).",
        discussion: """
            Example:
              subscriptionctl keys revoke paywall
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The key's name.")
    var name: String

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let key = try await ManualChange.refusing {
                try await context.apiKeys(configuredApps: []).revoke(name: name, by: ManualChange.principal)
            }
            if options.json {
                try Output.json(APIKeyDocument(key, key: nil))
            } else {
                Output.line("key \(key.name) revoked at \(key.revokedAt.map { TimeText.utc($0) } ?? "now")")
            }
        }
    }
}

/// A key as `keys` prints it with `--json`; `key` only when it was just made.
struct APIKeyDocument: Encodable {
    let name: String
    let key: String?
    let scopes: [String]
    let apps: [String]
    let createdAt: Date
    let lastUsedAt: Date?
    let expiresAt: Date?
    let revokedAt: Date?
    let state: String

    init(_ record: APIKeyRecord, key: String?) {
        self.name = record.name
        self.key = key
        self.scopes = record.scopes.sorted().map(\.rawValue)
        self.apps = record.apps.bundleIDs
        self.createdAt = record.createdAt
        self.lastUsedAt = record.lastUsedAt
        self.expiresAt = record.expiresAt
        self.revokedAt = record.revokedAt
        self.state = Self.state(of: record, at: Date())
    }

    private enum CodingKeys: String, CodingKey {
        case name, key, scopes, apps, state
        case createdAt = "created_at", lastUsedAt = "last_used_at", expiresAt = "expires_at", revokedAt = "revoked_at"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(key, forKey: .key)
        try container.encode(scopes, forKey: .scopes)
        try container.encode(apps, forKey: .apps)
        try container.encode(state, forKey: .state)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastUsedAt, forKey: .lastUsedAt)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(revokedAt, forKey: .revokedAt)
    }

    static func state(of key: APIKeyRecord, at now: Date) -> String {
        key.revokedAt != nil ? "revoked" : key.isExpired(at: now) ? "expired" : "live"
    }

    static func scopesText(_ scopes: Set<Scope>) -> String { scopes.sorted().map(\.rawValue).joined(separator: ",") }

    static func appsText(_ apps: AppScope) -> String { apps.bundleIDs.isEmpty ? "every app" : apps.bundleIDs.joined(separator: ",") }
}
