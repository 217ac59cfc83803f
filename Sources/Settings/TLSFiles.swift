import Foundation

/// The certificate chain and private key the listener serves HTTPS with (`TLS_CERT_FILE`,
/// `TLS_KEY_FILE`, PEM). Without them subscriptiond speaks plain HTTP, for a reverse proxy
/// that terminates TLS in front of it: Apple posts notifications only to HTTPS.
public struct TLSFiles: Sendable, Equatable {
    /// The PEM certificate chain, leaf first.
    public let certificateChain: String
    /// The PEM private key of the leaf.
    public let privateKey: String

    public init(certificateChain: String, privateKey: String) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }

    /// Both settings or neither; each must name a readable file, and the key one that only
    /// its owner may read (mode 600 or stricter).
    static func load(_ reader: SettingsReader) throws -> TLSFiles? {
        switch (reader.string("TLS_CERT_FILE"), reader.string("TLS_KEY_FILE")) {
        case (nil, nil):
            return nil
        case (let certificate?, let key?):
            if !FileManager.default.isReadableFile(atPath: certificate) {
                throw ConfigurationError("TLS_CERT_FILE", "names \(certificate), which cannot be read")
            }
            try SecretFile.checkPermissions(key, setting: "TLS_KEY_FILE", forbidden: SecretFile.groupAndOtherUsersBits)
            return TLSFiles(certificateChain: certificate, privateKey: key)
        case (_?, nil):
            throw ConfigurationError("TLS_KEY_FILE", "is not set, but TLS_CERT_FILE is: HTTPS needs both")
        case (nil, _?):
            throw ConfigurationError("TLS_CERT_FILE", "is not set, but TLS_KEY_FILE is: HTTPS needs both")
        }
    }
}
