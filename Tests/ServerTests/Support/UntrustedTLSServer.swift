import Foundation
import TestSupport

/// `openssl s_server` on a loopback port with a fresh self-signed certificate: a real TLS
/// peer whose certificate no client trusts, for the permanent kind of TLS failure.
final class UntrustedTLSServer: Sendable {
    let port: Int
    private let process: Process
    private let directory: URL

    /// Generates the certificate and starts the server; throws when openssl is missing or fails.
    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("untrusted-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = directory.appendingPathComponent("key.pem").path
        let certificate = directory.appendingPathComponent("certificate.pem").path
        let generate = Process()
        generate.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        generate.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-subj", "/CN=127.0.0.1", "-days", "1", "-keyout", key, "-out", certificate,
        ]
        generate.standardOutput = FileHandle.nullDevice
        generate.standardError = FileHandle.nullDevice
        try ChildProcesses.launch(generate)
        generate.waitUntilExit()
        guard generate.terminationStatus == 0 else { throw Failure(reason: "openssl req exited \(generate.terminationStatus)") }

        // s_server buffers its "ACCEPT" line when writing to a pipe, so the port is chosen
        // here (free a moment ago) and the server is awaited until it accepts.
        let chosen = try LoopbackPort.free()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "s_server", "-accept", "127.0.0.1:\(chosen)", "-cert", certificate, "-key", key, "-www", "-quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ChildProcesses.launch(process)
        port = chosen
        let deadline = ContinuousClock.now + .seconds(10)
        while (try? RawConnection(port: chosen, readTimeout: .seconds(1))) == nil {
            guard ContinuousClock.now < deadline, process.isRunning else {
                stop()
                throw Failure(reason: "openssl s_server did not start listening on \(chosen)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The `https://` URL of `path` on this server.
    func url(_ path: String) -> String { "https://127.0.0.1:\(port)\(path)" }

    /// Stops the server and removes its files.
    func stop() {
        ChildProcesses.stop(process, removing: directory)
    }

    struct Failure: Error, CustomStringConvertible {
        let reason: String
        var description: String { "untrusted TLS server: \(reason)" }
    }
}
