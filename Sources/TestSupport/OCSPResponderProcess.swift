import Foundation

/// `openssl ocsp` answering on a loopback port for the certificates one CA issued: a real
/// OCSP responder (RFC 6960 over HTTP, responses signed by the CA) for online-check tests.
///
/// The port is chosen before the responder starts, since the certificates must name it;
/// a port with no responder yet is a responder that does not answer.
public final class OCSPResponderProcess: Sendable {
    /// What the responder says of one certificate.
    public struct Status: Sendable {
        /// The serial number in uppercase hex without leading zero bytes, as openssl's index holds it.
        public let serialHex: String
        /// Revoked (on 2025-01-01) rather than good.
        public let revoked: Bool

        public init(serialHex: String, revoked: Bool) {
            self.serialHex = serialHex
            self.revoked = revoked
        }
    }

    public let port: Int
    private let process: Process
    private let directory: URL

    /// Starts a responder on `port` signing with the CA's certificate and key (PEM) and
    /// knowing `statuses`; any other serial is answered "unknown". Throws when openssl fails.
    public init(port: Int, caCertificatePEM: String, caKeyPEM: String, statuses: [Status]) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocsp-responder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = directory.appendingPathComponent("ca.pem")
        let key = directory.appendingPathComponent("ca.key")
        let index = directory.appendingPathComponent("index.txt")
        try Data(caCertificatePEM.utf8).write(to: certificate)
        try Data(caKeyPEM.utf8).write(to: key)
        // openssl's CA database: status, expiry, revocation time, serial, file, subject.
        let lines = statuses.map { status in
            "\(status.revoked ? "R" : "V")\t301231235959Z\t\(status.revoked ? "250101000000Z" : "")\t\(status.serialHex)\tunknown\t/CN=test\n"
        }
        try Data(lines.joined().utf8).write(to: index)
        try Data("unique_subject = no\n".utf8).write(to: directory.appendingPathComponent("index.txt.attr"))

        let arguments = [
            "openssl", "ocsp", "-port", String(port), "-index", index.path, "-CA", certificate.path,
            "-rsigner", certificate.path, "-rkey", key.path, "-ndays", "1", "-ignore_err",
        ]
        // The port is fixed (the certificates name it), and a responder stopped a moment ago
        // may still hold it: openssl then exits at once, so it is started again, a few times.
        var started: Process?
        for attempt in 1...5 {
            if let process = try await Self.launch(arguments, directory: directory) {
                started = process
                break
            }
            if attempt < 5 { try await Task.sleep(for: .seconds(1)) }
        }
        guard let started else {
            try? FileManager.default.removeItem(at: directory)
            throw Failure(reason: "openssl ocsp did not start listening on \(port)")
        }
        process = started
        self.port = port
    }

    /// Starts `openssl ocsp` with `arguments`; the process once it listens, nil when it exited
    /// first (or did not listen within 10 s, when it is stopped).
    private static func launch(_ arguments: [String], directory: URL) async throws -> Process? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        // Ready once it says so on stderr (unbuffered). Probing the port instead would hang
        // it: the responder serves one connection at a time and blocks on one that sends nothing.
        let log = directory.appendingPathComponent("stderr.log")
        try Data().write(to: log)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try ChildProcesses.launch(process)
        let deadline = ContinuousClock.now + .seconds(10)
        while !((try? String(contentsOf: log, encoding: .utf8))?.contains("waiting for OCSP client connections") ?? false) {
            guard ContinuousClock.now < deadline, process.isRunning else {
                if process.isRunning { process.terminate() }
                process.waitUntilExit()
                return nil
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return process
    }

    /// The URL a certificate names for this responder on `port`.
    public static func url(port: Int) -> String { "http://127.0.0.1:\(port)/" }

    /// Stops the responder and removes its files.
    public func stop() {
        ChildProcesses.stop(process, removing: directory)
    }

    struct Failure: Error, CustomStringConvertible {
        let reason: String
        var description: String { "OCSP responder: \(reason)" }
    }
}
