import SigningTestSupport

/// A test PKI whose leaf and intermediate each name an OCSP responder on a loopback port of
/// their own, and the `openssl ocsp` responders that answer for them (started on demand:
/// until then the port is a responder that does not answer).
public struct OCSPTestChain: Sendable {
    public let pki: TestPKI
    public let leafPort: Int
    public let intermediatePort: Int

    public init() throws {
        let leafPort = try LoopbackPort.freeOutsideEphemeralRange()
        var intermediatePort = try LoopbackPort.freeOutsideEphemeralRange()
        while intermediatePort == leafPort { intermediatePort = try LoopbackPort.freeOutsideEphemeralRange() }
        self.leafPort = leafPort
        self.intermediatePort = intermediatePort
        pki = try TestPKI(
            .init(
                leafOCSPURL: OCSPResponderProcess.url(port: leafPort),
                intermediateOCSPURL: OCSPResponderProcess.url(port: intermediatePort)))
    }

    /// The intermediate's responder, answering for the leaf.
    public func leafResponder(revoked: Bool = false) async throws -> OCSPResponderProcess {
        try await OCSPResponderProcess(
            port: leafPort, caCertificatePEM: pki.intermediate.pem, caKeyPEM: pki.intermediate.keyPEM,
            statuses: [.init(serialHex: pki.leaf.serialHex, revoked: revoked)])
    }

    /// The root's responder, answering for the intermediate.
    public func intermediateResponder(revoked: Bool = false) async throws -> OCSPResponderProcess {
        try await OCSPResponderProcess(
            port: intermediatePort, caCertificatePEM: pki.root.pem, caKeyPEM: pki.root.keyPEM,
            statuses: [.init(serialHex: pki.intermediate.serialHex, revoked: revoked)])
    }
}
