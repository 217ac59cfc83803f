import Crypto
import Foundation
import SwiftASN1
import X509

extension SimPKI {
    /// The default state folder, `.local/appstore-sim` under the current directory.
    public static var defaultStateDirectory: URL {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent(".local/appstore-sim", isDirectory: true)
    }

    /// The PKI kept in `directory`, created there on first use, so the root stays the same
    /// across runs and subscriptiond's configured root keeps working.
    ///
    /// A leaf that has expired (or expires within 30 days) is replaced from the same
    /// intermediate and saved.
    public static func loadOrCreate(in directory: URL, now: Date = Date()) throws -> SimPKI {
        let files = Files(directory: directory)
        if FileManager.default.fileExists(atPath: files.url("root.pem").path) {
            var pki = try load(files)
            if pki.leaf.certificate.notValidAfter < now.addingTimeInterval(30 * 86_400) {
                pki = try pki.renewingLeaf(now: now)
                try files.save(pki.leaf, as: "leaf")
            }
            return pki
        }
        let pki = try generate(now: now)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try files.save(pki.root, as: "root")
        try files.save(pki.intermediate, as: "intermediate")
        try files.save(pki.leaf, as: "leaf")
        return pki
    }

    private static func load(_ files: Files) throws -> SimPKI {
        SimPKI(
            root: try files.load("root"),
            intermediate: try files.load("intermediate"),
            leaf: try files.load("leaf")
        )
    }

    /// `NAME.pem` (certificate) and `NAME-key.pem` (PKCS#8 private key) in one folder.
    private struct Files {
        let directory: URL

        func url(_ name: String) -> URL {
            directory.appendingPathComponent(name)
        }

        func save(_ issued: SimCertificate, as name: String) throws {
            try Data(issued.pem.utf8).write(to: url(name + ".pem"), options: .atomic)
            let keyURL = url(name + "-key.pem")
            try Data(issued.key.pemRepresentation.utf8).write(to: keyURL, options: .atomic)
            // The keys are test keys, but still nobody else's business.
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyURL.path)
        }

        func load(_ name: String) throws -> SimCertificate {
            do {
                let pem = try String(contentsOf: url(name + ".pem"), encoding: .utf8)
                let keyPEM = try String(contentsOf: url(name + "-key.pem"), encoding: .utf8)
                return try SimCertificate(
                    certificate: try Certificate(pemEncoded: pem),
                    key: try P256.Signing.PrivateKey(pemRepresentation: keyPEM)
                )
            } catch {
                throw SimulatorError("cannot load the simulator's \(name) certificate from \(directory.path): \(error)")
            }
        }
    }
}
