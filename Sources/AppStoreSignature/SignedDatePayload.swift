import AppStore
import Foundation

/// A signed payload type that says when Apple signed it: the certificate validation time.
public protocol SignedDatePayload: Decodable, Sendable {
    /// `signedDate`, or `nil` when the payload has none (then the chain is checked at now).
    var signedDate: Date? { get }
}

extension NotificationV2Payload: SignedDatePayload {}
extension JWSTransactionPayload: SignedDatePayload {}
extension JWSRenewalInfoPayload: SignedDatePayload {}
extension AppTransactionPayload: SignedDatePayload {}
extension RealtimeRequestPayload: SignedDatePayload {}
