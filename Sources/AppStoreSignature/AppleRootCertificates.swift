import Foundation
import SwiftASN1
import X509

/// The only roots a signed payload may chain to (Apple Root CA – G3 in production).
///
/// Loaded from PEM (one or more certificates per file) or DER files; configured through
/// `APPSTORE_ROOT_CERTIFICATES` as a comma-separated list of paths.
public struct AppleRootCertificates: Sendable {
    /// The trusted root certificates.
    public let certificates: [Certificate]

    /// Trusts exactly `certificates`.
    public init(_ certificates: [Certificate]) {
        self.certificates = certificates
    }

    /// Parses the certificates of one file's bytes: PEM when it holds a PEM header, else DER.
    public init(pemOrDER bytes: [UInt8]) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.contains("-----BEGIN") {
            let documents = try PEMDocument.parseMultiple(pemString: text)
            certificates = try documents.map { try Certificate(pemDocument: $0) }
        } else {
            certificates = [try Certificate(derEncoded: bytes)]
        }
        if certificates.isEmpty { throw RootCertificateError(path: nil) }
    }

    /// Loads every file of a comma-separated list of paths (blank entries are skipped).
    public init(commaSeparatedPaths: String) throws {
        let paths = commaSeparatedPaths.split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        try self.init(paths: paths)
    }

    /// Loads every file of `paths`; an unreadable or unparsable file is an error naming it.
    public init(paths: [String]) throws {
        var all: [Certificate] = []
        for path in paths {
            do {
                let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
                all += try AppleRootCertificates(pemOrDER: bytes).certificates
            } catch {
                throw RootCertificateError(path: path)
            }
        }
        guard !all.isEmpty else { throw RootCertificateError(path: nil) }
        certificates = all
    }
}

/// A root certificate file that could not be read or parsed.
public struct RootCertificateError: Error, Sendable, CustomStringConvertible {
    /// The file, or `nil` when no certificate was configured at all.
    public let path: String?

    /// Names the file.
    public var description: String {
        path.map { "cannot load root certificate from \($0)" } ?? "no root certificate configured"
    }
}
