import AppStoreSignature
import Foundation

/// `signature-bench FIXTURE_DIR [SECONDS]`: signed-payload verifications per second, with a
/// full chain validation each time (a fresh verifier) and in the steady state (one verifier,
/// its chain cache warm: one ES256 check per JWS). Run it pinned to one core
/// (`Benchmarks/signature-verify.sh` does).
@main
struct SignatureBench {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            FileHandle.standardError.write(Data("usage: signature-bench FIXTURE_DIR [SECONDS]\n".utf8))
            exit(2)
        }
        let fixtures = URL(fileURLWithPath: arguments[1])
        let seconds = arguments.count > 2 ? Double(arguments[2]) ?? 3 : 3
        let roots = try AppleRootCertificates(paths: [fixtures.appendingPathComponent("apple-root-ca-g3.pem").path])
        let body = try Data(contentsOf: fixtures.appendingPathComponent("v2-genuine/TEST_2022-09-02_sandbox.json"))
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any], let jws = object["signedPayload"] as? String
        else {
            throw CocoaError(.fileReadCorruptFile)
        }
        let cold = try await rate(seconds: seconds) { _ = try await SignedPayloadVerifier(roots: roots).verifyNotification(jws) }
        let verifier = SignedPayloadVerifier(roots: roots)
        let warm = try await rate(seconds: seconds) { _ = try await verifier.verifyNotification(jws) }
        print(String(format: "full chain validation: %.0f verifications/s", cold))
        print(String(format: "cached chain (steady state): %.0f verifications/s", warm))
        print(String(format: "ratio cached / full: %.1fx", warm / cold))
    }

    private static func rate(seconds: Double, _ operation: @Sendable () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        var count = 0
        while clock.now - start < .milliseconds(Int(seconds * 1_000)) {
            try await operation()
            count += 1
        }
        let elapsed = clock.now - start
        return Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
