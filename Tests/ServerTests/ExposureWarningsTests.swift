import Foundation
import Settings
import TestSupport
import Testing

/// Issue 37, item 8: a listener off loopback says at startup what it exposes, naming the
/// setting: bearer credentials in clear without TLS, and an open `/metrics`.
@Suite("Startup warnings: credentials without TLS and an open /metrics off loopback")
struct ExposureWarningsTests {
    private func configuration(_ settings: [String: String]) throws -> ServiceConfiguration {
        try ServiceConfiguration.load(
            environment: ["APPSTORE_BUNDLE_ID": RunningService.bundleID, "APPSTORE_SHARED_SECRET": RunningService.sharedSecret]
                .merging(settings) { _, new in new })
    }

    @Test("the rule: off loopback, no TLS warns naming API keys, ADMIN_TOKEN and TLS_CERT_FILE; no METRICS_TOKEN warns naming it")
    func rule() throws {
        let open = try configuration(["SUBSCRIPTIOND_HOST": "0.0.0.0"])
        let both = open.exposureWarnings()
        #expect(both.count == 2, "\(both)")
        #expect(both.contains { $0.contains("ADMIN_TOKEN") && $0.contains("TLS_CERT_FILE") && $0.contains("0.0.0.0") })
        #expect(both.contains { $0.hasPrefix("METRICS_TOKEN is not set") && $0.contains("/metrics") })
        #expect(both.allSatisfy { !$0.contains("\n") })
        // /v1 takes keys whether or not ADMIN_TOKEN is set: without TLS they cross in clear.
        let guarded = try configuration(["SUBSCRIPTIOND_HOST": "10.0.0.5", "METRICS_TOKEN": "metrics-token-0123456789"])
        #expect(guarded.exposureWarnings().count == 1)
        // On loopback (the default, and behind a reverse proxy) nothing is said.
        for host in ["127.0.0.1", "::1", "localhost"] {
            #expect(try configuration(["SUBSCRIPTIOND_HOST": host]).exposureWarnings().isEmpty)
        }
        // The token itself never appears in a warning.
        let token = try configuration(["SUBSCRIPTIOND_HOST": "0.0.0.0", "ADMIN_TOKEN": RunningService.adminToken])
        #expect(token.exposureWarnings().allSatisfy { !$0.contains(RunningService.adminToken) })
    }

    @Test("the real binary on 0.0.0.0 with ADMIN_TOKEN and no METRICS_TOKEN logs both at warning; on 127.0.0.1 neither")
    func realBinary() async throws {
        let settings = ["ADMIN_TOKEN": RunningService.adminToken, "LOG_FORMAT": "json"]
        try await RealBinary.with(settings.merging(["SUBSCRIPTIOND_HOST": "0.0.0.0"]) { _, new in new }) { process, _, _ in
            _ = try await process.start()
            let warnings = Self.warnings(process.logText)
            #expect(warnings.contains { $0.contains("ADMIN_TOKEN") && $0.contains("TLS_CERT_FILE") }, "\(process.logText)")
            #expect(warnings.contains { $0.hasPrefix("METRICS_TOKEN is not set") }, "\(process.logText)")
            #expect(!process.logText.contains(RunningService.adminToken))
        }
        try await RealBinary.with(settings) { process, _, _ in
            _ = try await process.start()
            #expect(!Self.warnings(process.logText).contains { $0.contains("off loopback") }, "\(process.logText)")
        }
    }

    /// The messages of the JSON log lines at level warning.
    private static func warnings(_ log: String) -> [String] {
        log.split(separator: "\n").compactMap { line in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                object["level"] as? String == "warning"
            else { return nil }
            return object["message"] as? String
        }
    }
}
