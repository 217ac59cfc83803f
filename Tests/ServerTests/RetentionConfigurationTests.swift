import Foundation
import Settings
import Subscriptions
import Testing

/// An app's `"retention"` rules in `SUBSCRIPTIOND_CONFIG`: read into the domain's rules, and
/// every mistake stopping startup with the app, the rule and what is wrong.
@Suite("Configuration: per-app retention rules")
struct RetentionConfigurationTests {
    static let id = "33333333-3333-4333-8333-333333333333"

    private func load(_ rules: String, extra: String = "", variables: [String: String] = [:]) throws -> ServiceConfiguration {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("retention-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"apps":[{"bundle_id":"a.b","app_apple_id":1\#(extra),"retention":\#(rules)}]}"#.utf8).write(to: file)
        return try ServiceConfiguration.load(environment: variables.merging(["SUBSCRIPTIOND_CONFIG": file.path]) { a, _ in a })
    }

    @Test("rules are read in order with their conditions and actions")
    func read() throws {
        let configuration = try load(
            #"""
            [{"match":{"product_id":"p","status":"billing_retry","in_trial":false,"storefront":"deu","auto_renew":false,
                       "eligibility":{"q":"eligible"}},
              "alternate_product":{"message_identifier":"\#(Self.id)","product_id":"q"}},
             {"message":{"message_identifier":"\#(Self.id.uppercased())"}}]
            """#)
        let rules = try #require(configuration.apps.app(bundleID: "a.b")?.retentionRules.rules)
        let id = try #require(UUID(uuidString: Self.id))
        #expect(
            rules == [
                RetentionRule(
                    match: RetentionMatch(
                        productID: "p", status: .billingRetry, inTrial: false, storefront: "DEU", autoRenew: false,
                        eligibility: ["q": .eligible]),
                    action: .alternateProduct(messageIdentifier: id, productID: "q")),
                RetentionRule(match: RetentionMatch(), action: .message(messageIdentifier: id)),
            ])
    }

    @Test("each mistake stops startup naming the app, the rule and the fix")
    func mistakes() {
        let message = #""message":{"message_identifier":"\#(Self.id)"}"#
        for (rules, words) in [
            (#"[{"match":{}}]"#, "retention[0] must have exactly one of message, alternate_product, promotional_offer"),
            (#"[{\#(message),"alternate_product":{"message_identifier":"\#(Self.id)","product_id":"q"}}]"#, "exactly one of"),
            (#"[{"message":{"message_identifier":"msg-1"}}]"#, "message.message_identifier must be the UUID"),
            (#"[{"message":{"message_identifier":"\#(Self.id)","product_id":"p"}}]"#, "message takes no product_id"),
            (#"[{"alternate_product":{"message_identifier":"\#(Self.id)"}}]"#, "alternate_product.product_id is required"),
            (#"[{"match":{"status":"lapsed"},\#(message)}]"#, "match.status must be one of active, grace_period"),
            (#"[{"match":{"storefront":"Germany"},\#(message)}]"#, "three-letter storefront code"),
            (#"[{"match":{"eligibility":{"p":"yes"}},\#(message)}]"#, "match.eligibility.p must be one of eligible"),
            (
                #"[{"match":{"produkt_id":"p"},\#(message)}]"#,
                #"retention[0].match has an unknown key "produkt_id"; did you mean "product_id"?"#
            ),
            (#"[{"mesage":{"message_identifier":"\#(Self.id)"}}]"#, #"retention[0] has an unknown key "mesage"; did you mean "message"?"#),
            (
                #"[{"promotional_offer":{"message_identifier":"\#(Self.id)","product_id":"p","offer_id":"o"}}]"#,
                "a retention promotional_offer is signed with the app's In-App Purchase key"
            ),
        ] {
            #expect { try load(rules) } throws: { "\($0)".contains(words) && "\($0)".contains("a.b") && !"\($0)".contains("\n") }
        }
    }
}
