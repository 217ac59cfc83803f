import Foundation
import JSON

extension JSONValue {
    /// The value with every signed field (a compact JWS under `signedPayload`,
    /// `signedTransactionInfo`, `signedRenewalInfo`, …) replaced by its decoded header and
    /// payload, at any depth, so operators can read a v2 notification. The signature and the
    /// certificates are never printed: only how many certificates the chain has.
    ///
    /// Decoding here is for display only; what was applied was verified by subscriptiond.
    public func decodingSignedData() -> JSONValue {
        switch self {
        case .object(let members):
            var decoded: [String: JSONValue] = [:]
            for (key, value) in members {
                if key.hasPrefix("signed"), case .string(let jws) = value, let readable = Self.readable(jws: jws) {
                    decoded[key] = readable
                } else {
                    decoded[key] = value.decodingSignedData()
                }
            }
            return .object(decoded)
        case .array(let values):
            return .array(values.map { $0.decodingSignedData() })
        default:
            return self
        }
    }

    private static func readable(jws: String) -> JSONValue? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = json(base64URL: parts[0]), let payload = json(base64URL: parts[1]) else { return nil }
        var shownHeader: [String: JSONValue] = [:]
        if case .object(let members) = header {
            for (key, value) in members {
                if key == "x5c", case .array(let chain) = value {
                    shownHeader[key] = .string("<\(chain.count) certificates>")
                } else {
                    shownHeader[key] = value
                }
            }
        }
        return .object(["header": .object(shownHeader), "payload": payload.decodingSignedData(), "signature": .string("<omitted>")])
    }

    private static func json(base64URL part: Substring) -> JSONValue? {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text) else { return nil }
        return JSONValue(parsing: String(decoding: data, as: UTF8.self))
    }
}
