import Crypto
import Foundation
import Synchronization

/// Chains already validated, so the steady state is one signature check per JWS.
///
/// Keyed by the leaf's and intermediate's base64 text. An entry answers only for a
/// signing time inside its validity window (latest notBefore to earliest notAfter of the
/// chain); outside it the caller validates the whole chain again. With online checks an
/// entry also answers only while its last revocation check is recent enough. Bounded: the least
/// recently used entry goes first. Safe to share between tasks.
final class VerifiedChainCache: Sendable {
    /// The identity of a (leaf, intermediate) pair: their `x5c` text as received. The same
    /// text is the same DER, so a hit needs no base64 decoding (each notification carries
    /// three JWS, all signed by the same chain); the same certificates in another encoding
    /// are only validated again.
    struct Key: Hashable, Sendable {
        let leaf: String
        let intermediate: String
    }

    /// What a validated chain grants.
    struct Entry: Sendable {
        let leafKey: P256.Signing.PublicKey
        let notBefore: Date
        let notAfter: Date
        /// When OCSP last answered "good" for the chain (nil: checked offline only).
        let revocationCheckedAt: Date?
    }

    private struct State {
        var entries: [Key: (entry: Entry, lastUse: UInt64)] = [:]
        var clock: UInt64 = 0
        var fullValidations = 0
    }

    private let capacity: Int
    private let state = Mutex(State())

    /// A cache of at most `capacity` chains (at least one).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The leaf key of a cached chain valid at `time`, or `nil` (then validate in full).
    ///
    /// - Parameter revocationCheckedSince: when given, the chain's revocation check must be
    ///   this recent too.
    func leafKey(for key: Key, at time: Date, revocationCheckedSince: Date? = nil) -> P256.Signing.PublicKey? {
        state.withLock { state in
            guard let found = state.entries[key],
                found.entry.notBefore <= time, time <= found.entry.notAfter
            else { return nil }
            if let revocationCheckedSince {
                guard let checkedAt = found.entry.revocationCheckedAt, checkedAt >= revocationCheckedSince else { return nil }
            }
            state.clock &+= 1
            state.entries[key] = (found.entry, state.clock)
            return found.entry.leafKey
        }
    }

    /// Remembers a chain that just passed full validation.
    func store(_ entry: Entry, for key: Key) {
        state.withLock { state in
            state.clock &+= 1
            state.fullValidations += 1
            state.entries[key] = (entry, state.clock)
            if state.entries.count > capacity,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.entries.removeValue(forKey: oldest)
            }
        }
    }

    /// How many chains passed full path validation (for tests: cache hits do not count).
    var fullValidationCount: Int {
        state.withLock { $0.fullValidations }
    }

    /// How many chains are cached.
    var count: Int {
        state.withLock { $0.entries.count }
    }
}
