import AppStoreSimulator
import Crypto
import Foundation
import SwiftASN1
import X509

/// A compact JWS split into its parts, decoded.
struct DecodedJWS {
    let header: [String: Any]
    let payload: [String: Any]
    let signingInput: [UInt8]
    let signature: [UInt8]

    init(_ jws: String) throws {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { throw TestFailure("not a compact JWS: \(jws.prefix(40))") }
        header = try jsonObject(try base64URLDecode(parts[0]))
        payload = try jsonObject(try base64URLDecode(parts[1]))
        signingInput = Array((parts[0] + "." + parts[1]).utf8)
        signature = try base64URLDecode(parts[2])
    }

    /// The `x5c` certificates, leaf first.
    func chain() throws -> [Certificate] {
        guard let x5c = header["x5c"] as? [String] else { throw TestFailure("no x5c") }
        return try x5c.map { text in
            guard let der = Data(base64Encoded: text) else { throw TestFailure("x5c entry not base64") }
            return try Certificate(derEncoded: Array(der))
        }
    }

    /// Whether the signature verifies with `key`.
    func verifies(with key: P256.Signing.PublicKey) -> Bool {
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return key.isValidSignature(signature, for: signingInput)
    }
}

func base64URLDecode(_ text: String) throws -> [UInt8] {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    guard let data = Data(base64Encoded: base64) else { throw TestFailure("not base64url: \(text.prefix(40))") }
    return Array(data)
}

/// A v2 notification's payload with its decoded transaction and renewal info.
struct DecodedNotificationV2 {
    let outer: DecodedJWS
    let data: [String: Any]
    let transaction: [String: Any]
    let renewal: [String: Any]

    init(_ notification: SimNotification) throws {
        let body = try jsonObject(notification.body)
        guard let signed = body["signedPayload"] as? String else { throw TestFailure("no signedPayload") }
        outer = try DecodedJWS(signed)
        data = outer.payload["data"] as? [String: Any] ?? [:]
        transaction = try (data["signedTransactionInfo"] as? String).map { try DecodedJWS($0).payload } ?? [:]
        renewal = try (data["signedRenewalInfo"] as? String).map { try DecodedJWS($0).payload } ?? [:]
    }

    var payload: [String: Any] { outer.payload }
}

/// A new empty temporary folder.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("appstore-sim-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
