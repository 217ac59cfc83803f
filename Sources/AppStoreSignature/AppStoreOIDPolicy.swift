import SwiftASN1
import X509

/// Apple's chain shape for signed App Store data, on top of RFC 5280 path validation.
///
/// Exactly leaf → intermediate → configured root; the intermediate carries the Apple WWDR
/// marker extension and the leaf the App Store receipt-signing marker, as Apple's own
/// server library requires. Any Apple-issued certificate would chain to the root; these
/// markers are what restrict it to the App Store's signing certificates.
struct AppStoreOIDPolicy: VerifierPolicy {
    /// Apple Worldwide Developer Relations intermediate marker.
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    /// App Store receipt-signing leaf marker.
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

    // Both are enforced below, so a certificate that marks them critical is understood.
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [Self.intermediateMarker, Self.leafMarker]

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        guard chain.count == 3 else {
            return .failsToMeetPolicy(reason: "chain is not leaf, intermediate, root")
        }
        guard chain[1].extensions[oid: Self.intermediateMarker] != nil else {
            return .failsToMeetPolicy(reason: "intermediate lacks the WWDR marker")
        }
        guard chain[0].extensions[oid: Self.leafMarker] != nil else {
            return .failsToMeetPolicy(reason: "leaf lacks the receipt-signing marker")
        }
        return .meetsPolicy
    }
}
