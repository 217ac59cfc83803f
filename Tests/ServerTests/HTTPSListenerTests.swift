import Foundation
import TestSupport
import Testing

/// HTTPS on subscriptiond's own listener (`TLS_CERT_FILE`, `TLS_KEY_FILE`): the real binary,
/// certificates made by openssl, and curl as the client, as an operator would check it.
@Suite("HTTPS: TLS_CERT_FILE and TLS_KEY_FILE", .serialized)
struct HTTPSListenerTests {
    /// A self-signed certificate for 127.0.0.1 (`name`.pem, `name`.key in `directory`).
    private static func certificate(_ name: String, in directory: URL) throws -> (certificate: String, key: String) {
        let certificate = directory.appendingPathComponent("\(name).pem").path
        let key = directory.appendingPathComponent("\(name).key").path
        let run = try Self.run(
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-subj", "/CN=subscriptiond \(name)", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1",
            "-keyout", key, "-out", certificate)
        #expect(run.status == 0, "\(run.output)")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        return (certificate, key)
    }

    /// curl's exit status and output for `https://127.0.0.1:port/health/live` trusting `caFile`.
    private static func curl(port: Int, trusting caFile: String, _ extra: String...) throws -> (status: Int32, output: String) {
        try run(["curl", "-sS", "--max-time", "10", "--cacert", caFile] + extra + ["https://127.0.0.1:\(port)/health/live"])
    }

    private static func run(_ arguments: String...) throws -> (status: Int32, output: String) {
        try run(arguments)
    }

    private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try ChildProcesses.run(arguments)
    }

    @Test("serves HTTPS (TLS 1.2 and 1.3) to a client trusting its certificate, refuses plain HTTP, and serves a renewed pair after SIGHUP")
    func servesAndReloads() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("https-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try Self.certificate("first", in: directory)
        let served = (
            certificate: directory.appendingPathComponent("served.pem").path, key: directory.appendingPathComponent("served.key").path
        )
        try FileManager.default.copyItem(atPath: first.certificate, toPath: served.certificate)
        try FileManager.default.copyItem(atPath: first.key, toPath: served.key)

        try await RealBinary.with(["TLS_CERT_FILE": served.certificate, "TLS_KEY_FILE": served.key]) { process, _, _ in
            let port = try await process.start()
            let trusted = try Self.curl(port: port, trusting: first.certificate)
            #expect(trusted.status == 0 && trusted.output.contains("ok"), "\(trusted.output)")
            #expect(try Self.curl(port: port, trusting: first.certificate, "--tlsv1.2", "--tls-max", "1.2").status == 0)
            #expect(try Self.curl(port: port, trusting: first.certificate, "--tlsv1.3").status == 0)
            // Plain HTTP on the HTTPS port gets no HTTP answer.
            let plain = try Self.run(
                "curl", "-sS", "--max-time", "5", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/health/live")
            #expect(plain.status != 0 && plain.output.hasSuffix("000"), "\(plain.output)")

            // A renewed pair replaces the files; SIGHUP makes new connections use it.
            let second = try Self.certificate("second", in: directory)
            try FileManager.default.removeItem(atPath: served.certificate)
            try FileManager.default.removeItem(atPath: served.key)
            try FileManager.default.copyItem(atPath: second.certificate, toPath: served.certificate)
            try FileManager.default.copyItem(atPath: second.key, toPath: served.key)
            process.send(SIGHUP)
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline, try Self.curl(port: port, trusting: second.certificate).status != 0 {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(try Self.curl(port: port, trusting: second.certificate).status == 0, "\(process.logText)")
            #expect(try Self.curl(port: port, trusting: first.certificate).status != 0, "the old certificate is no longer served")

            // A broken renewal keeps the pair in service and says so.
            try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: served.certificate))
            process.send(SIGHUP)
            let logged = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < logged, !process.logText.contains("still serving the previous pair") {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(process.logText.contains("still serving the previous pair"))
            #expect(try Self.curl(port: port, trusting: second.certificate).status == 0)
            #expect(process.isRunning)
        }
    }

    @Test("a certificate without its key, a file that is not PEM, or a key of another certificate stops startup naming the setting")
    func badPairs() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("https-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let one = try Self.certificate("one", in: directory)
        let other = try Self.certificate("other", in: directory)
        let garbage = directory.appendingPathComponent("garbage.pem").path
        try Data("-----BEGIN NOTHING-----".utf8).write(to: URL(fileURLWithPath: garbage))
        for (settings, words) in [
            (["TLS_CERT_FILE": one.certificate], "TLS_KEY_FILE is not set, but TLS_CERT_FILE is"),
            (["TLS_CERT_FILE": garbage, "TLS_KEY_FILE": one.key], "TLS_CERT_FILE names \(garbage), which holds no PEM certificate"),
            (
                ["TLS_CERT_FILE": one.certificate, "TLS_KEY_FILE": other.key],
                "TLS_KEY_FILE is not the private key of TLS_CERT_FILE's certificate"
            ),
            (
                ["TLS_CERT_FILE": one.certificate, "TLS_KEY_FILE": directory.appendingPathComponent("missing.key").path],
                "which cannot be read"
            ),
        ] {
            try await RealBinary.with(settings) { process, _, _ in
                await #expect { _ = try await process.start() } throws: { error in
                    "\(error)".contains(words)
                }
                #expect(!process.isRunning)
            }
        }
    }

    @Test("a TLS_KEY_FILE its group or other users may read (0644, 0640, 0604) stops startup naming it and its mode; 0600 and 0400 start")
    func keyFilePermissions() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("https-mode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = try Self.certificate("mode", in: directory)
        let settings = ["TLS_CERT_FILE": pair.certificate, "TLS_KEY_FILE": pair.key]
        for mode in [0o644, 0o640, 0o604] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: pair.key)
            try await RealBinary.with(settings) { process, _, _ in
                await #expect { _ = try await process.start() } throws: { error in
                    let text = "\(error)"
                    return text.contains("TLS_KEY_FILE names \(pair.key)") && text.contains("(mode \(String(mode, radix: 8)))")
                        && text.contains("chmod 600 \(pair.key)")
                }
                #expect(!process.isRunning)
            }
        }
        for mode in [0o600, 0o400] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: pair.key)
            try await RealBinary.with(settings) { process, _, _ in
                let port = try await process.start()
                #expect(port > 0)
            }
        }
    }
}
