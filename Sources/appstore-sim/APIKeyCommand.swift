import AppStoreSimulator
import ArgumentParser
import Foundation

/// `appstore-sim api-key`: makes the In-App Purchase key the App Store Server API accepts.
struct APIKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api-key",
        abstract:
            "Make an App Store Server API key: write its private key (.p8, PKCS#8 PEM) to --out, keep the public key in the state folder.",
        discussion: """
            Example: appstore-sim api-key --out .local/appstore-sim/key.p8
            Prints APPSTORE_ISSUER_ID, APPSTORE_KEY_ID and APPSTORE_PRIVATE_KEY_FILE lines for subscriptiond. \
            `serve` and `run` with the same --state-dir then accept tokens signed with it; a new key replaces the old one.
            """
    )

    @Option(help: "Where to write the private key (PKCS#8 PEM, like App Store Connect's .p8).")
    var out: String

    @Option(help: "The key id (kid); default: 10 random characters.")
    var keyId: String?

    @Option(help: "The issuer id (iss); default: a random UUID.")
    var issuerId: String?

    @OptionGroup var state: StateOptions

    func run() throws {
        let (key, privateKeyPEM) = SimAPIKey.generate(keyID: keyId, issuerID: issuerId)
        let url = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(privateKeyPEM.utf8).write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        try key.save(in: state.directory)
        print("APPSTORE_ISSUER_ID=\(key.issuerID)")
        print("APPSTORE_KEY_ID=\(key.keyID)")
        print("APPSTORE_PRIVATE_KEY_FILE=\(url.path)")
    }
}
