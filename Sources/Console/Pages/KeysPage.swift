import Access
import Foundation
import Hummingbird
import Subscriptions
import UseCases

/// API keys, for admins: the list, a form that makes a key and shows its secret once (in the
/// answer to the POST, never stored or shown again), and revoking.
extension ConsoleController {
    func addKeyRoutes(to console: RouterGroup<Context>) {
        page(console, "keys", needs: .manageKeys) { request, _, session in
            let notice = request.uri.queryParameters["notice"] == "revoked" ? "Key revoked." : ""
            return try html(
                PageFrame(
                    title: "API keys", section: "Keys", session: session, notice: notice, content: try await keysContent(created: nil)),
                template: "keys")
        }
        action(console, "keys", needs: .manageKeys) { _, _, session, form in
            let scopes = Set(Scope.allCases.filter { form.fields["scope_\($0.rawValue)"] == "on" })
            let expires = try form["expires"].map { text -> Date in
                guard let day = UTCDay.parse(text) else {
                    throw ConsolePageError(.badRequest, "Expires must be a date such as 2027-01-31.")
                }
                return day
            }
            let created = try await services.keys.create(
                name: form["name"] ?? "", scopes: scopes, apps: form["app"].map { [$0] } ?? [], expiresAt: expires,
                by: session.principal)
            return try html(
                PageFrame(
                    title: "API keys", section: "Keys", session: session,
                    notice: "Key \(created.record.name) made. Copy its secret now: it is not shown again.",
                    content: try await keysContent(created: created.text)),
                template: "keys", status: .created)
        }
        action(console, "keys/revoke", needs: .manageKeys) { _, _, session, form in
            _ = try await services.keys.revoke(name: form["name"] ?? "", by: session.principal)
            return redirect("/console/keys?notice=revoked")
        }
    }

    private func keysContent(created secret: String?) async throws -> KeysContent {
        let keys = try await services.keys.list().map { record in
            KeysContent.Key(
                name: record.name, scopes: record.scopes.sorted().map(\.rawValue).joined(separator: ", "),
                apps: record.apps.bundleIDs.isEmpty ? "all" : record.apps.bundleIDs.joined(separator: ", "),
                created: ConsoleTime.minute(record.createdAt), lastUsed: ConsoleTime.minute(record.lastUsedAt),
                expires: ConsoleTime.minute(record.expiresAt), revoked: record.revokedAt != nil,
                revokedAt: ConsoleTime.minute(record.revokedAt))
        }
        return KeysContent(
            keys: keys, secret: secret, scopes: Scope.allCases.map(\.rawValue), apps: services.keys.configuredApps.sorted())
    }
}

/// The keys page's values.
struct KeysContent {
    struct Key {
        let name: String
        let scopes: String
        let apps: String
        let created: String
        let lastUsed: String
        let expires: String
        let revoked: Bool
        let revokedAt: String
    }

    let keys: [Key]
    /// The secret of the key just made (nil otherwise).
    let secret: String?
    let scopes: [String]
    let apps: [String]
}
