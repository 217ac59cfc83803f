import Crypto
import Foundation
import Settings
import Subscriptions
import Testing

/// The per-app `consumption` setting: read, checked, and refused without an API key.
@Suite("Configuration: per-app consumption answers")
struct ConsumptionConfigurationTests {
    private func load(_ app: String, merging variables: [String: String] = [:]) throws -> ServiceConfiguration {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("apps-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"apps":[\#(app)]}"#.utf8).write(to: file)
        return try ServiceConfiguration.load(environment: variables.merging(["SUBSCRIPTIOND_CONFIG": file.path]) { a, _ in a })
    }

    private func keyFile() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString).p8")
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return file
    }

    @Test("consumption is read, with the API key from the file or from the single-app variables")
    func read() throws {
        let key = try keyFile()
        defer { try? FileManager.default.removeItem(at: key) }
        let inFile = try load(
            #"{"bundle_id":"a.b","app_apple_id":1,"issuer_id":"i","key_id":"K","private_key_file":"\#(key.path)","consumption":{"refund_preference":"DECLINE","delivery_status":"UNDELIVERED_OTHER","sample_content_provided":true}}"#
        )
        #expect(
            inFile.apps.app(bundleID: "a.b")?.consumptionPolicy
                == ConsumptionPolicy(refundPreference: .decline, deliveryStatus: .undeliveredOther, sampleContentProvided: true))
        let merged = try load(
            #"{"bundle_id":"a.b","consumption":{}}"#,
            merging: [
                "APPSTORE_BUNDLE_ID": "a.b", "APPSTORE_APP_APPLE_ID": "1", "APPSTORE_ISSUER_ID": "i", "APPSTORE_KEY_ID": "K",
                "APPSTORE_PRIVATE_KEY_FILE": key.path,
            ])
        #expect(merged.apps.app(bundleID: "a.b")?.consumptionPolicy == ConsumptionPolicy())
        #expect(try load(#"{"bundle_id":"a.b","app_apple_id":1}"#).apps.app(bundleID: "a.b")?.consumptionPolicy == nil)
    }

    @Test("a bad value, an unknown key, or no API key stops startup with a line naming it")
    func mistakes() throws {
        let key = try keyFile()
        defer { try? FileManager.default.removeItem(at: key) }
        let withKey = #""app_apple_id":1,"issuer_id":"i","key_id":"K","private_key_file":"\#(key.path)""#
        for (app, words) in [
            (
                #"{"bundle_id":"a.b",\#(withKey),"consumption":{"refund_preference":"MAYBE"}}"#,
                "consumption.refund_preference must be one of DECLINE"
            ),
            (
                #"{"bundle_id":"a.b",\#(withKey),"consumption":{"delivery_status":"LOST"}}"#,
                "consumption.delivery_status must be one of DELIVERED"
            ),
            (
                #"{"bundle_id":"a.b",\#(withKey),"consumption":{"refund_prefrence":"DECLINE"}}"#,
                #"apps[0] (a.b).consumption has an unknown key "refund_prefrence"; did you mean "refund_preference"?"#
            ),
            (
                #"{"bundle_id":"a.b","app_apple_id":1,"consumption":{"refund_preference":"DECLINE"}}"#,
                "consumption needs the app's App Store Server API key"
            ),
        ] {
            #expect(throws: ConfigurationError.self, "\(app)") { try load(app) }
            do {
                _ = try load(app)
            } catch {
                #expect("\(error)".contains(words), "\(error)")
            }
        }
    }
}
