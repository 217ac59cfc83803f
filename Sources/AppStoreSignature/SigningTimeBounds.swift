import Foundation
import X509

/// The signing times a payload may claim before any certificate code sees them.
///
/// A payload's `signedDate` is the chain's validation time, and it is read before the
/// signature is checked: it is attacker-controlled. swift-certificates traps on times it
/// cannot encode (a `signedDate` in the year 9999 rounds to 10000 and stops the process),
/// so a time outside these bounds is refused first: never earlier than the configured roots
/// became valid (no chain can be valid then anyway), never later than a day after now (the
/// slack covers clock skew between Apple and this host, nothing more).
struct SigningTimeBounds: Sendable {
    /// How far ahead of this host's clock a signature may claim to be.
    static let futureTolerance: TimeInterval = 24 * 60 * 60

    /// The earliest `notValidBefore` of the configured roots.
    let earliest: Date

    /// Bounds for chains that end at one of `roots`.
    init(roots: AppleRootCertificates) {
        earliest = roots.certificates.map(\.notValidBefore).min() ?? .distantFuture
    }

    /// Whether `time` may be used as a validation time when the clock reads `now`.
    func admits(_ time: Date, now: Date) -> Bool {
        earliest <= time && time <= now.addingTimeInterval(Self.futureTolerance)
    }
}
