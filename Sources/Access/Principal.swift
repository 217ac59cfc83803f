/// Who is asking: an API key, a console user or an operator at the terminal, with what it
/// may do and which apps it sees. Every edge resolves one before calling a use case, and
/// every audit row names its ``actor``.
public struct Principal: Sendable, Equatable {
    /// What kind of principal it is, which the audit actor's prefix says.
    public enum Kind: String, Sendable {
        /// An API key (`subscriptionctl keys create`, or `ADMIN_TOKEN` as `admin-token`).
        case apiKey = "key"
        /// A console user.
        case consoleUser = "console"
        /// `subscriptionctl`, run by an operating system user.
        case cli
    }

    /// The key's, user's or operating system user's name; never a secret.
    public let name: String
    /// What kind of principal it is.
    public let kind: Kind
    /// What it may do.
    public let scopes: Set<Scope>
    /// The apps it sees.
    public let apps: AppScope

    /// Creates a principal.
    public init(name: String, kind: Kind, scopes: Set<Scope>, apps: AppScope) {
        self.name = name
        self.kind = kind
        self.scopes = scopes
        self.apps = apps
    }

    /// The operator at the terminal: every scope, every app.
    public static func cli(user: String) -> Principal {
        Principal(name: user, kind: .cli, scopes: [.admin], apps: .all)
    }

    /// The name the audit log records: `key:paywall`, `console:ana`, `cli:root`.
    public var actor: String { "\(kind.rawValue):\(name)" }

    /// True when one of its scopes permits `needed`.
    public func may(_ needed: Scope) -> Bool {
        scopes.contains { $0.permits(needed) }
    }

    /// True when it sees `bundleID`.
    public func sees(_ bundleID: String) -> Bool {
        apps.contains(bundleID)
    }
}
