import Access
import Foundation
import Logging
import Synchronization

/// Who a request's `Authorization` header says it is, judged against the keys this process
/// holds: reloaded from the database every second or so (``refresh()``), so a key made or
/// revoked anywhere is seen here within about that, with `ADMIN_TOKEN` as `admin-token`.
/// When each key was last used is kept in memory and written in batches (``flushUses()``),
/// not once per request. A request's lookup takes a lock for microseconds and never waits
/// for the database.
public final class APIKeyAuthentication: Sendable {
    /// What the header came to.
    public enum Verdict: Sendable, Equatable {
        /// A live key: act as this principal.
        case principal(Principal)
        /// No usable key; the sentence says why, without echoing what was sent.
        case refused(String)
    }

    /// What the lookups share: the ring, the uses not yet written, whether keys were read.
    private struct State {
        var ring: KeyRing
        var uses: [String: Date] = [:]
        var loaded = false
    }

    private let repository: any APIKeyRepository
    private let adminToken: String?
    private let state: Mutex<State>

    /// - Parameter adminToken: `ADMIN_TOKEN`'s text, accepted as the admin key `admin-token`.
    public init(repository: any APIKeyRepository, adminToken: String?) {
        self.repository = repository
        self.adminToken = adminToken
        self.state = Mutex(State(ring: KeyRing(keys: [], adminToken: adminToken)))
    }

    /// Reloads the live keys; on failure the keys held so far stay in use (a revocation is
    /// then seen once the database answers again).
    public func refresh() async throws {
        let ring = KeyRing(keys: try await repository.live(), adminToken: adminToken)
        state.withLock { state in
            state.ring = ring
            state.loaded = true
        }
    }

    /// True once the keys were read from the database at least once.
    public var hasLoaded: Bool { state.withLock { $0.loaded } }

    /// The verdict on an `Authorization` header's value (nil: no header) at `now`.
    public func authenticate(authorization: String?, now: Date = Date()) -> Verdict {
        guard let authorization else { return .refused("missing Authorization: Bearer <key>") }
        let scheme = "bearer "
        guard authorization.count > scheme.count, authorization.prefix(scheme.count).lowercased() == scheme else {
            return .refused("the Authorization header must be Bearer <key>")
        }
        let presented = authorization.dropFirst(scheme.count).trimmingCharacters(in: .whitespaces)
        let ring = state.withLock { $0.ring }
        switch ring.lookup(presented, at: now) {
        case .principal(let principal):
            state.withLock { $0.uses[principal.name] = now }
            return .principal(principal)
        case .expired(let name):
            return .refused("the key \(name) has expired")
        case .unknown:
            return .refused("unknown or revoked key")
        }
    }

    /// Writes the last uses seen since the previous flush; kept for the next one when the
    /// database does not answer.
    public func flushUses() async throws {
        let pending = state.withLock { state in
            defer { state.uses = [:] }
            return state.uses.filter { $0.key != KeyRing.adminTokenName }
        }
        do {
            try await repository.recordUse(pending)
        } catch {
            state.withLock { $0.uses.merge(pending) { current, _ in current } }
            throw error
        }
    }
}
