import Foundation
import Settings
import SigningTestSupport
import TestSupport
import Testing

/// Issue 37, item 3: StoreKit Testing in Xcode purchases are for local development, and what
/// tells a development deployment from a real one is where Apple is, not the listen address
/// (behind the recommended reverse proxy every deployment listens on loopback).
@Suite("Xcode transactions: refused at startup beside a real Apple endpoint")
struct XcodeStartupGuardTests {
    /// Every Apple endpoint on loopback, as when running against appstore-sim.
    static let loopbackAppleEndpoints = [
        "VERIFY_RECEIPT_URL": "http://127.0.0.1:9/verifyReceipt", "VERIFY_RECEIPT_SANDBOX_URL": "http://127.0.0.1:9/sandbox/verifyReceipt",
        "APPSTORE_API_URL": "http://127.0.0.1:9", "APPSTORE_API_SANDBOX_URL": "http://localhost:9",
    ]

    /// An app with `xcode_certificate_file` (a self-signed P-256 certificate, saved as DER),
    /// listening on loopback; the files are removed after `body`.
    private func withXcodeApp(_ body: ([String: String]) async throws -> Void) async throws {
        let certificate = FileManager.default.temporaryDirectory.appendingPathComponent("StoreKitTestCertificate-\(UUID()).cer")
        try Data(try TestPKI().root.der).write(to: certificate)
        defer { try? FileManager.default.removeItem(at: certificate) }
        let config = try TemporaryFile.write(
            #"{"apps":[{"bundle_id":"\#(RunningService.bundleID)","app_apple_id":1,"xcode_certificate_file":"\#(certificate.path)"}]}"#,
            name: "xcode-guard.json")
        defer { try? FileManager.default.removeItem(atPath: config) }
        try await body(["SUBSCRIPTIOND_CONFIG": config, "SUBSCRIPTIOND_HOST": "127.0.0.1"])
    }

    @Test(
        "each Apple endpoint off loopback, even on a loopback listener, stops startup naming ALLOW_XCODE_TRANSACTIONS and the endpoint; true lets it start"
    )
    func guardLooksAtAppleEndpoints() async throws {
        try await withXcodeApp { base in
            let local = base.merging(Self.loopbackAppleEndpoints) { _, new in new }
            #expect(throws: Never.self) { try ServiceConfiguration.load(environment: local) }
            // Off loopback with every Apple endpoint local is a test deployment: it starts.
            #expect(throws: Never.self) {
                try ServiceConfiguration.load(environment: local.merging(["SUBSCRIPTIOND_HOST": "0.0.0.0"]) { _, new in new })
            }
            for setting in Self.loopbackAppleEndpoints.keys.sorted() {
                let real = local.merging([setting: "https://apple.example/endpoint"]) { _, new in new }
                #expect {
                    try ServiceConfiguration.load(environment: real)
                } throws: { error in
                    let line = "\(error)"
                    return (error as? ConfigurationError)?.setting == "ALLOW_XCODE_TRANSACTIONS" && line.contains("xcode_certificate_file")
                        && line.contains("\(setting) is https://apple.example/endpoint") && !line.contains("\n")
                }
                let allowed = try ServiceConfiguration.load(
                    environment: real.merging(["ALLOW_XCODE_TRANSACTIONS": "true"]) { _, new in new })
                #expect(allowed.apps.app(bundleID: RunningService.bundleID)?.xcodeCertificate != nil)
            }
            // The defaults are Apple's own endpoints.
            #expect(throws: ConfigurationError.self) { try ServiceConfiguration.load(environment: base) }
        }
    }

    @Test("the real binary on 127.0.0.1 beside Apple's verifyReceipt exits with one line; with ALLOW_XCODE_TRANSACTIONS=true it starts")
    func realBinary() async throws {
        try await withXcodeApp { base in
            let real = base.merging(["VERIFY_RECEIPT_URL": "https://buy.itunes.apple.com/verifyReceipt"]) { _, new in new }
            try await RealBinary.with(real) { refused, _, _ in
                let failure = await #expect(throws: ServiceProcess.ProcessStartFailure.self) { try await refused.start() }
                let lines = (failure?.log ?? "").split(separator: "\n")
                #expect(lines.count == 1, "\(lines)")
                #expect(lines.first?.contains("ALLOW_XCODE_TRANSACTIONS") == true && lines.first?.contains("VERIFY_RECEIPT_URL") == true)
            }
            try await RealBinary.with(real.merging(["ALLOW_XCODE_TRANSACTIONS": "true"]) { _, new in new }) { allowed, _, _ in
                let port = try await allowed.start()
                #expect(port > 0)
            }
        }
    }
}
