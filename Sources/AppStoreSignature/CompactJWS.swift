import AppStore
import Foundation
import JSON

/// A compact JWS split into its parts, not yet verified.
///
/// Parsing only checks structure: exactly three unpadded base64url parts and a header that
/// is a JSON object. Failures here are ``SignedPayloadError/Kind-swift.enum/malformed``;
/// `alg` and `x5c` are kept as found and judged by the verifier.
public struct CompactJWS: Sendable, Hashable {
    /// The header's `alg`, or `nil` when absent or not a string.
    public let algorithm: String?
    /// The header's `x5c` (standard base64 DER certificates), or `nil` when absent or not an array of strings.
    public let certificateChain: [String]?
    /// The decoded payload bytes (JSON for Apple's payloads).
    public let payload: [UInt8]
    /// The decoded signature bytes (JOSE ES256: raw r‖s, 64 bytes).
    public let signature: [UInt8]
    /// The ASCII `header.payload` the signature covers.
    public let signingInput: [UInt8]

    /// Splits and decodes `text`, as bytes: a notification is 18 kB of ASCII, and splitting it
    /// as a `String` (by grapheme cluster) cost more than its signatures (docs/performance.md).
    public init(parsing text: String) throws(SignedPayloadError) {
        let bytes = Array(text.utf8)
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .partCount }
        guard let header = Base64URL.decode(parts[0]),
            let payload = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2])
        else { throw .base64URL }
        guard case .object(let fields)? = try? StrictJSONParser.parse(header) else { throw .headerJSON }
        if case .string(let algorithm)? = fields["alg"] { self.algorithm = algorithm } else { algorithm = nil }
        certificateChain = Self.strings(fields["x5c"])
        self.payload = payload
        self.signature = signature
        signingInput = Array(bytes[parts[0].startIndex..<parts[1].endIndex])
    }
}

extension CompactJWS {
    /// An array of strings, or nil for anything else (an array holding a non-string too).
    private static func strings(_ value: JSONValue?) -> [String]? {
        guard case .array(let items)? = value else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(items.count)
        for item in items {
            guard case .string(let text) = item else { return nil }
            strings.append(text)
        }
        return strings
    }

    /// The payload of `text` decoded as `type`, nothing verified: for the verifier once the
    /// input parsed, and for payloads verified before they were stored.
    static func decodedPayload<Payload: Decodable>(of text: String, as type: Payload.Type) throws(SignedPayloadError) -> Payload {
        try CompactJWS(parsing: text).decodedPayload(as: type)
    }

    /// This JWS's payload decoded as `type`.
    func decodedPayload<Payload: Decodable>(as type: Payload.Type) throws(SignedPayloadError) -> Payload {
        do {
            return try JSONDecoder().decode(Payload.self, from: Data(payload))
        } catch {
            throw .payloadJSON
        }
    }
}
