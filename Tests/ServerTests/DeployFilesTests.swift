import Crypto
import Foundation
import Settings
import TestSupport
import Testing

/// The operator files in Deploy/ are checked by the tools that read them.
@Suite("Deploy files: alert rules, reverse-proxy example, dashboard, systemd unit, environment example")
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

    @Test("systemd-analyze security rates the unit 2.0 or better, with Type=notify, a watchdog and no capabilities")
    func systemdUnit() throws {
        let script = TestEnvironment.repositoryRoot().appendingPathComponent("Deploy/systemd/check-unit.sh").path
        let check = try ChildProcesses.run([script])
        #expect(check.status == 0, "check-unit.sh (make test installs systemd-analyze): \(check.output)")
        #expect(check.output.contains("Overall exposure level for subscriptiond.service"), "\(check.output)")
        let unit = try String(
            contentsOf: TestEnvironment.repositoryRoot().appendingPathComponent("Deploy/systemd/subscriptiond.service"), encoding: .utf8)
        let lines = Set(unit.split(separator: "\n").map(String.init))
        for line in [
            "Type=notify", "NotifyAccess=main", "CapabilityBoundingSet=", "UMask=0077", "SystemCallFilter=@system-service",
            "RestrictNamespaces=true",
        ] {
            #expect(lines.contains(line), "the unit lacks \(line)")
        }
        let watchdog = try #require(lines.first { $0.hasPrefix("WatchdogSec=") })
        #expect(watchdog != "WatchdogSec=0")
        let files = try #require(lines.first { $0.hasPrefix("LimitNOFILE=") }.flatMap { Int($0.dropFirst("LimitNOFILE=".count)) })
        #expect(files >= 2_048 + 20 + 256, "LimitNOFILE=\(files) is below HTTP_MAX_CONNECTIONS + DATABASE_POOL_SIZE + a margin")
    }

    @Test("the environment example names every setting, binds loopback, keeps secrets in *_FILE files, and loads")
    func environmentExample() throws {
        let file = TestEnvironment.repositoryRoot().appendingPathComponent("Deploy/subscriptiond.env.example")
        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        for (name, defaultValue) in ServiceConfiguration.variables {
            let line =
                lines.first { $0.hasPrefix("\(name)=") || $0.hasPrefix("#\(name)=") || $0.hasPrefix("#\(name)_FILE=") }
                ?? lines.first { $0.hasPrefix("\(name)_FILE=") }
            #expect(line != nil, "\(name) is not in the example")
            if let line, let defaultValue, line.hasPrefix("#\(name)=") {
                #expect(line == "#\(name)=\(defaultValue)", "a commented line shows the default: \(line)")
            }
        }
        let variables = try EnvironmentFile.parse(text)
        #expect(variables["SUBSCRIPTIOND_HOST"] == "127.0.0.1")
        #expect(variables["METRICS_TOKEN_FILE"] != nil && variables["ADMIN_TOKEN_FILE"] != nil)
        for name in SecretSettings.names where name != "DATABASE_URL" {
            #expect(variables[name] == nil, "\(name) is set in the example: use \(name)_FILE")
        }
        // The files it names, as an operator would create them.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("env-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = variables
        for (name, value) in variables where value.hasPrefix("/etc/subscriptiond/") {
            let placeholder = directory.appendingPathComponent(name)
            let contents = value.hasSuffix(".p8") ? P256.Signing.PrivateKey().pemRepresentation : "placeholder-\(name)-0123456789abcdef\n"
            try Data(contents.utf8).write(to: placeholder)
            try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: placeholder.path)
            environment[name] = placeholder.path
        }
        let configuration = try ServiceConfiguration.load(environment: environment)
        #expect(configuration.adminToken?.revealed == "placeholder-ADMIN_TOKEN_FILE-0123456789abcdef")
        #expect(configuration.metricsToken != nil)
        #expect(configuration.apps.app(bundleID: "com.example.app")?.apiKey != nil, "v2 first: the API key is configured")
        #expect(configuration.apps.app(bundleID: "com.example.app")?.sharedSecret == nil, "v1's shared secret is the legacy option")
        #expect(configuration.exposureWarnings().isEmpty && configuration.unknownSettingWarnings.isEmpty)
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
