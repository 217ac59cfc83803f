import Crypto
import Foundation
import SwiftASN1
import X509

extension AppleRootCertificates {
    /// The SHA-256 of Apple Root CA – G3's DER encoding, the root every genuine App Store
    /// signature chains to (the same as `Certificates/AppleRootCA-G3.pem`).
    public static let appleRootCAG3SHA256 = "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179"

    /// The subjects of the configured roots that are not Apple Root CA – G3: with any of
    /// them trusted, something other than Apple can sign notifications this server believes.
    public var rootsOtherThanAppleRootCAG3: [String] {
        certificates.compactMap { certificate in
            var serializer = DER.Serializer()
            guard (try? serializer.serialize(certificate)) != nil else { return "\(certificate.subject)" }
            let digest = SHA256.hash(data: serializer.serializedBytes).map { String(format: "%02x", $0) }.joined()
            return digest == Self.appleRootCAG3SHA256 ? nil : "\(certificate.subject)"
        }
    }
}
