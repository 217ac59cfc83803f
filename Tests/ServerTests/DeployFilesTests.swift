import Foundation
import TestSupport
import Testing

/// The operator files in Deploy/ are checked by the tools that read them.
@Suite("Deploy files: alert rules, reverse-proxy example, dashboard")
struct DeployFilesTests {
    static let prometheus = TestEnvironment.repositoryRoot().appendingPathComponent("Deploy/prometheus")

    private static func promtool(_ arguments: String...) throws -> (status: Int32, output: String) {
        try ChildProcesses.run(["promtool"] + arguments, in: prometheus)
    }

    @Test("promtool accepts the alert rules, and each alert fires on the series meant to fire it and not on healthy ones")
    func alertRules() throws {
        let check = try Self.promtool("check", "rules", "alerts.yml")
        #expect(check.status == 0, "promtool check rules (make test installs promtool): \(check.output)")
        #expect(check.output.contains("SUCCESS: 9 rules found"), "\(check.output)")
        let test = try Self.promtool("test", "rules", "alerts.test.yml")
        #expect(test.status == 0, "\(test.output)")
    }

    @Test("caddy accepts the reverse-proxy example")
    func caddyfile() throws {
        let file = TestEnvironment.repositoryRoot().appendingPathComponent("Deploy/caddy/Caddyfile").path
        let validate = try ChildProcesses.run(["caddy", "validate", "--config", file, "--adapter", "caddyfile"])
        #expect(
            validate.status == 0 && validate.output.contains("Valid configuration"),
            "caddy validate (make test installs caddy): \(validate.output)")
    }

    @Test("the dashboard is JSON whose every query reads a series subscriptiond exports or Hummingbird's")
    func dashboard() throws {
        let file = TestEnvironment.repositoryRoot().appendingPathComponent("Deploy/grafana/subscriptiond.json")
        let dashboard = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let panels = try #require(dashboard["panels"] as? [[String: Any]])
        #expect(panels.count >= 8)
        let known = try String(contentsOf: TestEnvironment.repositoryRoot().appendingPathComponent("docs/operations.md"), encoding: .utf8)
        for panel in panels {
            for target in panel["targets"] as? [[String: Any]] ?? [] {
                let expr = try #require(target["expr"] as? String)
                let names = expr.matches(of: /(subscriptiond_[a-z_]+|hb_[a-z_]+)/).map { String($0.output.1) }
                #expect(!names.isEmpty, "\(expr)")
                for name in names {
                    let base = name.replacing(/_(bucket|count|sum)$/, with: "")
                    #expect(known.contains("`\(base)"), "\(name) in the dashboard is not documented in docs/operations.md")
                }
            }
        }
    }
}
