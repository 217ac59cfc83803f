import AppStoreSignature
import Foundation
import Synchronization

/// Hands out the App Store Server API token, signing a new one only when the current one
/// is older than `reuseFor`, so a steady stream of requests costs one signature a few minutes.
///
/// The token lives 5 minutes (`AppStoreAPIToken.lifetime`); reusing it for 4 leaves a
/// minute of margin for clock skew and slow requests. Never log what it returns.
final class AppStoreAPITokenCache: Sendable {
    private let signer: AppStoreAPIToken
    private let reuseFor: TimeInterval
    private let now: @Sendable () -> Date
    private let current = Mutex<(token: String, issuedAt: Date)?>(nil)

    /// A cache over `signer`; `now` is the clock (tests pin it).
    init(signer: AppStoreAPIToken, reuseFor: TimeInterval = 240, now: @escaping @Sendable () -> Date = Date.init) {
        self.signer = signer
        self.reuseFor = min(max(reuseFor, 0), AppStoreAPIToken.lifetime - 30)
        self.now = now
    }

    /// A token valid for at least another minute.
    func token() throws -> String {
        let now = now()
        return try current.withLock { current in
            if let current, now >= current.issuedAt, now.timeIntervalSince(current.issuedAt) < reuseFor {
                return current.token
            }
            let token = try signer.token(now: now)
            current = (token, now)
            return token
        }
    }
}
