import Foundation
import NIOConcurrencyHelpers

/// Signs Get Retention Message requests as the App Store sends them (`RealtimeRequestBody`:
/// `{"signedPayload": JWS}`), with the simulator's certificate chain exactly as it signs v2
/// notifications, so a server that trusts the simulator's root verifies them like Apple's.
///
/// Tests of a retention endpoint use it directly; the simulator's performance test uses it
/// for every request it sends.
public struct RealtimeRequestSigner: Sendable {
    private let signer: JWSSigner

    /// A signer over `pki`'s leaf (`AppStoreSimulator.signingPKI()` for the simulator's own).
    public init(pki: SimPKI) {
        signer = JWSSigner(pki: pki)
    }

    init(signer: JWSSigner) {
        self.signer = signer
    }

    /// The compact JWS (`signedPayload`) of `fields`.
    public func signedPayload(_ fields: RealtimeRequestFields) throws -> String {
        try signer.sign(fields.payload)
    }

    /// The whole request body, `{"signedPayload":"<JWS>"}`, as UTF-8 JSON.
    public func body(_ fields: RealtimeRequestFields) throws -> [UInt8] {
        JSONValue.object([("signedPayload", .string(try signedPayload(fields)))]).bytes()
    }
}

extension AppStoreSimulator {
    /// A signer of Get Retention Message requests with this simulator's PKI (made now if
    /// there is none yet), the one its notifications are signed with.
    public func realtimeRequestSigner() throws -> RealtimeRequestSigner {
        RealtimeRequestSigner(signer: try box.withLockedValue { try $0.signer() })
    }
}
