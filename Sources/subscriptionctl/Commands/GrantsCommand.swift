import ArgumentParser
import Composition
import ContractDocuments
import Foundation
import Subscriptions
import UseCases

/// `subscriptionctl grants add/list/revoke`: manual entitlements (support, comps), each
/// change with an audit row naming the operating system user.
struct GrantsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grants",
        abstract: "Grant entitlements by hand, list and revoke grants.",
        subcommands: [GrantsAddCommand.self, GrantsListCommand.self, GrantsRevokeCommand.self]
    )
}

/// `subscriptionctl grants add APP_USER_ID ENTITLEMENT [--until DATE] --reason TEXT`.
struct GrantsAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Grant an entitlement to an app user, for good or until a date.",
        discussion: """
            The entitlement must be in the catalog (subscriptionctl products list). The grant shows \
            in the user's entitlements with source "grant" until it ends or is revoked; the audit \
            log records who granted it and why. Exit 1 for an unknown entitlement.

            Example:
              subscriptionctl grants add user-42 pro --until 2026-12-31 --reason "support ticket 1234"
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The app's user id.")
    var appUserID: String

    @Argument(help: "The entitlement id.")
    var entitlement: String

    @Option(help: "When the grant ends (RFC 3339 time, or a date: its midnight UTC); for good without it.")
    var until: String?

    @Option(help: "Why (kept in the audit log).")
    var reason: String

    func run() async throws {
        let expiresAt = try until.map { text in
            guard let date = RFC3339.parse(text) else { throw ValidationError("--until must be an RFC 3339 time or a date, got \(text)") }
            return date
        }
        try await CommandExecution.withDatabase(options) { context in
            let grant = try await ManualChange.refusing {
                try await context.manualGrants.add(
                    appUserID: appUserID, entitlement: entitlement, expiresAt: expiresAt, reason: reason, actor: ManualChange.actor)
            }
            if options.json {
                try Output.json(GrantDocument(grant).jsonValue)
            } else {
                Output.line(
                    "grant \(grant.id): \(grant.entitlement) for \(grant.appUserID) "
                        + (grant.expiresAt.map { "until \(TimeText.utc($0))" } ?? "for good"))
            }
        }
    }
}

/// `subscriptionctl grants list [APP_USER_ID]`.
struct GrantsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List manual grants, newest first (one user's, or everyone's).",
        discussion: """
            Example:
              subscriptionctl grants list user-42
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Only this app user's grants.")
    var appUserID: String?

    @Option(help: "At most this many grants.")
    var limit: Int = 100

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let grants = try await context.manualGrants.list(appUserID: appUserID, limit: limit)
            if options.json {
                try Output.json(GrantListDocument(grants).jsonValue)
                return
            }
            guard !grants.isEmpty else {
                Output.line("no grants" + (appUserID.map { " for \($0)" } ?? ""))
                return
            }
            let now = Date()
            var table = Table("GRANT", "USER", "ENTITLEMENT", "STATE", "UNTIL", "GRANTED", "REASON")
            for grant in grants {
                let state = grant.revokedAt != nil ? "revoked" : grant.isActive(at: now) ? "active" : "ended"
                table.append([
                    String(grant.id), grant.appUserID, grant.entitlement, state,
                    grant.expiresAt.map { TimeText.utc($0) } ?? "for good", TimeText.utc(grant.createdAt), grant.reason,
                ])
            }
            Output.line(table.render())
        }
    }
}

/// `subscriptionctl grants revoke ID`.
struct GrantsRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke a manual grant (its row and audit trail stay).",
        discussion: """
            Example:
              subscriptionctl grants revoke 7 --reason "ticket closed"
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The grant's id (grants list shows it).")
    var id: Int64

    @Option(help: "Why (kept in the audit log).")
    var reason: String?

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let grant = try await ManualChange.refusing {
                try await context.manualGrants.revoke(id: id, appUserID: nil, reason: reason, actor: ManualChange.actor)
            }
            if options.json {
                try Output.json(GrantDocument(grant).jsonValue)
            } else {
                Output.line("grant \(grant.id) revoked: \(grant.entitlement) for \(grant.appUserID)")
            }
        }
    }
}
