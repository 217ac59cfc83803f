import Foundation

/// What a key or a console user may do: the contract's scopes.
///
/// `read` reads subscribers, subscriptions and entitlements and asks eligibility without
/// signing; `write` adds what the app's backend sends (receipts, transactions,
/// app transactions, consent); `offers` adds signing; `reports` reads the business's
/// numbers; `admin` may do everything, deleting and granting included.
public enum Scope: String, CaseIterable, Sendable, Comparable {
    case read, write, offers, reports, admin

    /// True when holding this scope permits what `needed` guards.
    public func permits(_ needed: Scope) -> Bool {
        switch (self, needed) {
        case (.admin, _): true
        case (.write, .read), (.offers, .read): true
        default: self == needed
        }
    }

    public static func < (lhs: Scope, rhs: Scope) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }

    /// The scopes of a comma-separated list such as `read,offers`, or the first word that is
    /// not one.
    public static func parseList(_ text: String) -> Result<Set<Scope>, UnknownScope> {
        var scopes = Set<Scope>()
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = word.trimmingCharacters(in: .whitespaces)
            guard let scope = Scope(rawValue: trimmed) else { return .failure(UnknownScope(word: trimmed)) }
            scopes.insert(scope)
        }
        return .success(scopes)
    }

    /// A word that names no scope.
    public struct UnknownScope: Error, Sendable, Equatable, CustomStringConvertible {
        /// The word as given.
        public let word: String
        public var description: String {
            "unknown scope \"\(word)\": use \(Scope.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }
}
