import Crypto
import Foundation

/// Signs compact JWS the way the App Store does: header `{"alg":"ES256","x5c":[…]}`,
/// base64url parts without padding, raw r‖s ECDSA P-256 SHA-256 signature.
public struct JWSSigner: Sendable {
    /// The chain and the leaf key that signs.
    public let pki: SimPKI
    private let header: String

    /// A signer using `pki`'s leaf.
    public init(pki: SimPKI) {
        self.pki = pki
        let chain = JSONValue.array(pki.x5c.map(JSONValue.string))
        header = Self.base64URL(JSONValue.object([("alg", .string("ES256")), ("x5c", chain)]).bytes())
    }

    /// The compact JWS of `payload` (JSON bytes).
    public func sign(payload: [UInt8]) throws -> String {
        let input = header + "." + Self.base64URL(payload)
        let signature = try pki.leaf.key.signature(for: Array(input.utf8))
        return input + "." + Self.base64URL(signature.rawRepresentation)
    }

    /// The compact JWS of a JSON value.
    func sign(_ payload: JSONValue) throws -> String {
        try sign(payload: payload.bytes())
    }

    /// Unpadded base64url.
    public static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
