import Foundation
import ServiceSupport

/// The keys a process accepts, and the lookup of a presented key among them.
///
/// The lookup digests the presented text and compares that digest with every key's, in
/// constant time and without stopping at a match, so how long it takes depends on how many
/// keys there are, never on whether (or how nearly) the presented one is among them.
public struct KeyRing: Sendable {
    /// The name `ADMIN_TOKEN` goes by: an admin key for every app.
    public static let adminTokenName = "admin-token"

    /// What a presented key turned out to be.
    public enum Lookup: Sendable, Equatable {
        /// A live key: the request acts as this principal.
        case principal(Principal)
        /// A key this process knows that expired.
        case expired(name: String)
        /// No key this process knows (revoked keys are not kept in the ring).
        case unknown
    }

    private let entries: [APIKeyRecord]

    /// The ring of `keys` (revoked ones are left out) and, when set, `ADMIN_TOKEN`'s text as
    /// the admin key `admin-token`.
    public init(keys: [APIKeyRecord], adminToken: String? = nil) {
        var entries = keys.filter { $0.revokedAt == nil && $0.name != Self.adminTokenName }
        if let adminToken {
            entries.append(
                APIKeyRecord(
                    name: Self.adminTokenName, digest: APIKeySecret.digest(of: adminToken), scopes: [.admin], apps: .all,
                    createdAt: .distantPast, expiresAt: nil, revokedAt: nil, lastUsedAt: nil))
        }
        self.entries = entries
    }

    /// How many keys the ring holds.
    public var count: Int { entries.count }

    /// The key whose text is `presented`, judged at `now`.
    public func lookup(_ presented: some StringProtocol, at now: Date) -> Lookup {
        lookup(digest: APIKeySecret.digest(of: presented), at: now, comparing: ConstantTime.equals)
    }

    /// The lookup with the comparison given (tests count the comparisons it makes).
    func lookup(digest: [UInt8], at now: Date, comparing equals: ([UInt8], [UInt8]) -> Bool) -> Lookup {
        var found: APIKeyRecord?
        for entry in entries where equals(entry.digest, digest) && found == nil {
            found = entry
        }
        guard let found else { return .unknown }
        return found.isExpired(at: now) ? .expired(name: found.name) : .principal(found.principal)
    }
}
