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
        #expect(try load(#"{"bundle_id":"com.example.plain","app_apple_id":1}"#).apps.entitlementPolicies.policy(for: "com.example.plain") == .standard)
    }

    @Test("a bad grandfather or sandbox_entitlement stops startup naming the app")
    func mistakes() {
        for (app, words) in [
            (#"{"bundle_id":"a.b","app_apple_id":1,"grandfather":{"before_version":"2.0b","entitlement":"pro"}}"#, "grandfather.before_version"),
            (#"{"bundle_id":"a.b","app_apple_id":1,"grandfather":{"before_version":"2.0","entitlement":""}}"#, "grandfather.entitlement is empty"),
            (#"{"bundle_id":"a.b","app_apple_id":1,"sandbox_entitlement":"maybe"}"#, "sandbox_entitlement must be"),
        ] {
            #expect { try load(app) } throws: { "\($0)".contains(words) && "\($0)".contains("a.b") }
        }
    }
}
