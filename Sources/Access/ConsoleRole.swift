/// What a console user may do (DESIGN.md, "Console"): `viewer` reads and sees the numbers,
/// `support` also changes one customer's access (grant, revoke a grant, re-check with Apple,
/// unlink), `admin` may do everything, deleting customers and replaying dead work included.
public enum ConsoleRole: String, CaseIterable, Sendable {
    case viewer, support, admin

    /// The scopes of the API a user of this role acts with, so every action is judged by the
    /// same rules as an API key's.
    public var scopes: Set<Scope> {
        switch self {
        case .viewer: [.read, .reports]
        case .support: [.read, .reports, .write]
        case .admin: [.admin]
        }
    }

    /// The principal a signed-in user of this role is.
    public func principal(name: String) -> Principal {
        Principal(name: name, kind: .consoleUser, scopes: scopes, apps: .all)
    }
}
