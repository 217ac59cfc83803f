import Crypto
import Foundation

extension SimAPIKey {
    /// The file in the state folder that keeps the accepted key: `api-key.json`
    /// (`{"keyId","issuerId","publicKeyPem"}`; no private key).
    public static func file(in directory: URL) -> URL {
        directory.appendingPathComponent("api-key.json")
    }

    /// The key saved in `directory`, or `nil` when none was made there yet.
    public static func load(from directory: URL) throws -> SimAPIKey? {
        let url = file(in: directory)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: url)) as? [String: Any]
            guard let keyID = object?["keyId"] as? String, let issuerID = object?["issuerId"] as? String,
                let pem = object?["publicKeyPem"] as? String
            else { throw SimulatorError("keyId, issuerId or publicKeyPem missing") }
            return try SimAPIKey(keyID: keyID, issuerID: issuerID, publicKeyPEM: pem)
        } catch {
            throw SimulatorError("cannot read the simulator's API key from \(url.path): \(error)")
        }
    }

    /// Saves the public half in `directory` (created if needed), replacing any earlier key.
    public func save(in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let json = JSONValue.object([
            ("keyId", .string(keyID)),
            ("issuerId", .string(issuerID)),
            ("publicKeyPem", .string(publicKey.pemRepresentation)),
        ])
        try Data(json.bytes()).write(to: Self.file(in: directory), options: .atomic)
    }
}
