import NIOSSL
import Settings
import Synchronization

/// The listener's TLS context, read from `TLS_CERT_FILE` and `TLS_KEY_FILE` at start and read
/// again on request (SIGHUP): a renewed certificate serves new connections without a restart,
/// and one that does not load leaves the previous one in place.
final class TLSContextStore: Sendable {
    private let files: TLSFiles
    private let current: Mutex<NIOSSLContext>

    /// Loads the files; a missing, malformed or mismatched pair throws a `ConfigurationError`
    /// naming the setting at fault.
    init(files: TLSFiles) throws {
        self.files = files
        current = Mutex(try Self.context(files))
    }

    /// The context new connections use.
    var context: NIOSSLContext { current.withLock { $0 } }

    /// Reads the files again; on failure the current context stays and the error is thrown.
    func reload() throws {
        let fresh = try Self.context(files)
        current.withLock { $0 = fresh }
    }

    /// A server context of the files: TLS 1.2 or later, the chain as given.
    static func context(_ files: TLSFiles) throws -> NIOSSLContext {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(files.certificateChain)
        } catch {
            throw ConfigurationError("TLS_CERT_FILE", "names \(files.certificateChain), which holds no PEM certificate (\(error))")
        }
        guard !chain.isEmpty else {
            throw ConfigurationError("TLS_CERT_FILE", "names \(files.certificateChain), which holds no PEM certificate")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: files.privateKey, format: .pem)
        } catch {
            throw ConfigurationError("TLS_KEY_FILE", "names \(files.privateKey), which holds no PEM private key (\(error))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw ConfigurationError("TLS_KEY_FILE", "is not the private key of TLS_CERT_FILE's certificate (\(error))")
        }
    }
}
