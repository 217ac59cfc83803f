import Foundation
import Settings
import Subscriptions
import Testing

@Suite("Configuration: per-app grandfather and sandbox_entitlement")
struct EntitlementPolicyConfigurationTests {
    private func load(_ app: String, merging variables: [String: String] = [:]) throws -> ServiceConfiguration {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("apps-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"apps":[\#(app)]}"#.utf8).write(to: file)
        return try ServiceConfiguration.load(environment: variables.merging(["SUBSCRIPTIOND_CONFIG": file.path]) { a, _ in a })
    }

    @Test("a policy is read, merged with the single-app variables, and the standard one by default")
    func policies() throws {
        let configuration = try load(
            #"{"bundle_id":"com.example.paid","app_apple_id":1,"grandfather":{"before_version":"2.0","entitlement":"pro"},"sandbox_entitlement":"ignore"}"#,
            merging: ["APPSTORE_BUNDLE_ID": "com.example.paid", "APPSTORE_SHARED_SECRET": "s3cret-0123456789"])
        let policy = configuration.apps.entitlementPolicies.policy(for: "com.example.paid")
        #expect(policy.grandfather == EntitlementPolicy.Grandfather(beforeVersion: DottedVersion("2")!, entitlement: "pro"))
        #expect(policy.sandboxEntitlement == .ignore)
        #expect(configuration.apps.app(bundleID: "com.example.paid")?.sharedSecret != nil)
        #expect(
            try load(#"{"bundle_id":"com.example.plain","app_apple_id":1}"#).apps.entitlementPolicies.policy(for: "com.example.plain")
                == .standard)
    }

    @Test("a bad grandfather or sandbox_entitlement stops startup naming the app")
    func mistakes() {
        for (app, words) in [
            (
                #"{"bundle_id":"a.b","app_apple_id":1,"grandfather":{"before_version":"2.0b","entitlement":"pro"}}"#,
                "grandfather.before_version"
            ),
            (
                #"{"bundle_id":"a.b","app_apple_id":1,"grandfather":{"before_version":"2.0","entitlement":""}}"#,
                "grandfather.entitlement is empty"
            ),
            (#"{"bundle_id":"a.b","app_apple_id":1,"sandbox_entitlement":"maybe"}"#, "sandbox_entitlement must be"),
        ] {
            #expect { try load(app) } throws: { "\($0)".contains(words) && "\($0)".contains("a.b") }
        }
    }
}

@Suite("Configuration: SUBSCRIPTIOND_CONFIG mistakes are named by file, place and key")
struct ConfigurationFileMistakesTests {
    private func problem(_ json: String) -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("apps-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            try Data(json.utf8).write(to: file)
            _ = try ServiceConfiguration.load(environment: ["SUBSCRIPTIOND_CONFIG": file.path])
            return "no error"
        } catch {
            let text = "\(error)"
            #expect(text.contains(file.path), "\(text)")
            return text.replacingOccurrences(of: "configuration error: SUBSCRIPTIOND_CONFIG file \(file.path): ", with: "")
        }
    }

    @Test("an unknown key stops startup naming it and the nearest known key, at any level")
    func unknownKeys() {
        #expect(
            problem(#"{"apps":[{"bundle_id":"a.b","app_apple_id":1,"webhook_ur":"https://example.com/h"}]}"#)
                == #"apps[0] (a.b) has an unknown key "webhook_ur"; did you mean "webhook_url"?"#)
        #expect(
            problem(#"{"apps":[{"bundle_id":"a.b","app_apple_id":1,"grandfather":{"before":"2.0","entitlement":"pro"}}]}"#)
                .hasPrefix(#"apps[0] (a.b).grandfather has an unknown key "before" (known: before_version, entitlement)"#))
        #expect(problem(#"{"app":[]}"#) == #"the top level has an unknown key "app"; did you mean "apps"?"#)
        #expect(
            problem(#"{"apps":[{"bundle_id":"a.b","app_apple_id":1,"colour":"red"}]}"#).contains(
                #"unknown key "colour" (known: bundle_id, "#))
    }

    @Test("a wrong type, a missing key or text that is not JSON is said by its place")
    func typesAndShapes() {
        #expect(problem(#"{"apps":[{"bundle_id":"a.b","app_apple_id":true}]}"#) == "apps[0].app_apple_id must be a string or a number")
        #expect(
            problem(#"{"apps":[{"bundle_id":"a.b","app_apple_id":1,"webhook_event_types":"expired"}]}"#)
                == "apps[0].webhook_event_types must be an array")
        #expect(problem(#"{"apps":[{"app_apple_id":1}]}"#) == #"apps[0] lacks "bundle_id""#)
        #expect(problem(#"{"apps":{}}"#) == "apps must be an array")
        #expect(problem("apps: []") == #"is not JSON: expected {"apps": [{"bundle_id": …}]}"#)
    }
}
