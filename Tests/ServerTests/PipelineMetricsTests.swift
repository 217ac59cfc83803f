import Foundation
import HTTPClient
import TestSupport
import Testing

/// `/metrics` of the real binary after real traffic: what an operator's dashboard and alerts
/// read (DESIGN.md, "Running it for real").
@Suite("Metrics: notifications received and processed, the inbox, upstream calls, the database pool")
struct PipelineMetricsTests {
    /// The value of the series `name{labels}` in a Prometheus text exposition, if present.
    static func value(_ name: String, _ labels: [(String, String)] = [], in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(name) && !line.hasPrefix("#") {
            let series = line.split(separator: " ").first.map(String.init) ?? ""
            let seriesName = series.split(separator: "{").first.map(String.init) ?? series
            guard seriesName == name, labels.allSatisfy({ series.contains("\($0.0)=\"\($0.1)\"") }) else { continue }
            return line.split(separator: " ").last.flatMap { Double($0) }
        }
        return nil
    }

    @Test("one accepted, one redelivered and one unreadable notification; the processed one; verifyReceipt's call; the gauges")
    func afterTraffic() async throws {
        try await RealBinary.with(["WORKER_CONCURRENCY": "2"]) { process, _, http in
            let port = try await process.start()
            let base = "http://127.0.0.1:\(port)"
            let body = NotificationBodies.renewal(originalTransactionID: "8200000000000001")
            for _ in 0..<2 {
                #expect(
                    try await http.execute(.postJSON(url: "\(base)/notifications/appstore", body: body, timeout: .seconds(10))).status
                        == 200)
            }
            #expect(
                try await http.execute(.postJSON(url: "\(base)/notifications/appstore", body: Array("{".utf8), timeout: .seconds(10)))
                    .status == 400)
            var text = ""
            let deadline = ContinuousClock.now + .seconds(30)
            repeat {
                try await Task.sleep(for: .milliseconds(200))
                text = String(decoding: try await http.execute(.get(url: "\(base)/metrics", timeout: .seconds(10))).body, as: UTF8.self)
            } while Self.value("subscriptiond_notifications_processed_total", [("outcome", "processed")], in: text) == nil
                && ContinuousClock.now < deadline
            let received = "subscriptiond_notifications_received_total"
            #expect(Self.value(received, [("version", "v1"), ("outcome", "accepted")], in: text) == 1, "\(text)")
            #expect(Self.value(received, [("version", "v1"), ("outcome", "duplicate")], in: text) == 1)
            #expect(Self.value(received, [("version", "unknown"), ("outcome", "malformed")], in: text) == 1)
            #expect(Self.value("subscriptiond_notifications_processed_total", [("outcome", "processed")], in: text) == 1)
            #expect(
                Self.value(
                    "subscriptiond_upstream_request_duration_seconds_count",
                    [("upstream", "verify_receipt"), ("status", "200")], in: text) ?? 0 >= 1)
            for state in ["in_use", "idle", "waiting"] {
                #expect(Self.value("subscriptiond_database_connections", [("state", state)], in: text) != nil, "\(state)")
            }
            #expect(Self.value("subscriptiond_inbox_pending", in: text) != nil)
            #expect(Self.value("subscriptiond_inbox_oldest_pending_seconds", in: text) != nil)
            #expect(Self.value("subscriptiond_database_up", in: text) == 1)
        }
    }
}
