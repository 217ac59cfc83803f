import Foundation
import Settings
import Subscriptions
import Testing

/// `REPORT_CURRENCY`, `tax_rates` and `small_business_program`: read from the same settings
/// as everything else, each mistake one line naming the setting.
@Suite("Money settings: report currency, tax rates, Small Business Program")
struct MoneySettingsTests {
    static func load(_ file: String?, _ settings: [String: String] = [:]) throws -> ServiceConfiguration {
        var environment = ["APPSTORE_BUNDLE_ID": RunningService.bundleID, "APPSTORE_SHARED_SECRET": RunningService.sharedSecret]
        if let file { environment["SUBSCRIPTIOND_CONFIG"] = try TemporaryFile.write(file, name: "config.json") }
        return try ServiceConfiguration.load(environment: environment.merging(settings) { _, new in new })
    }

    @Test("the defaults: USD, no tax rates, no program; a full file reads")
    func reads() throws {
        #expect(try Self.load(nil).money == MoneySettings())
        let money = try Self.load(
            #"""
            {"tax_rates": {"DEU": 0.19, "GBR": 0.2, "USA": 0},
             "apps": [{"bundle_id": "com.example.other", "shared_secret": "other-shared-secret-0123456789",
                       "small_business_program": [{"from": "2021-01-01", "until": "2024-01-01"}, {"from": "2025-01-01", "until": null}]}]}
            """#, ["REPORT_CURRENCY": "EUR"]
        ).money
        #expect(money.reportCurrency == "EUR")
        #expect(money.taxRates == TaxRates(["DEU": Decimal(string: "0.19")!, "GBR": Decimal(string: "0.2")!, "USA": 0]))
        let program = money.smallBusinessProgram(of: "com.example.other")
        #expect(program.includes(UTCDay.parse("2021-01-01")!) && !program.includes(UTCDay.parse("2024-01-01")!))
        #expect(program.includes(UTCDay.parse("2030-06-01")!))
        #expect(money.smallBusinessProgram(of: RunningService.bundleID).periods.isEmpty)
    }

    @Test(
        "each mistake is one line naming the setting",
        arguments: [
            (nil, ["REPORT_CURRENCY": "usd"], "REPORT_CURRENCY must be three upper-case letters"),
            (#"{"apps": [], "tax_rates": {"DEU": 1.19}}"#, [:], "tax_rates of DEU must be a number from 0 up to 1"),
            (#"{"apps": [], "tax_rates": {"de": 0.19}}"#, [:], "tax_rates has \"de\", which is not a storefront code"),
            (#"{"apps": [], "tax_rates": {"DEU": "19%"}}"#, [:], "tax_rates of DEU must be a number"),
            (#"{"apps": [], "tax_rate": {"DEU": 0.19}}"#, [:], "unknown key \"tax_rate\"; did you mean \"tax_rates\"?"),
            (
                #"{"apps": [{"bundle_id": "b", "shared_secret": "other-shared-secret-0123456789", "small_business_program": [{"from": "2024-01-01", "until": "2023-01-01"}]}]}"#,
                [:], "small_business_program of b period 1: \"until\" must be a day after \"from\""
            ),
            (
                #"{"apps": [{"bundle_id": "b", "shared_secret": "other-shared-secret-0123456789", "small_business_program": [{"since": "2024-01-01"}]}]}"#,
                [:], "small_business_program of b period 1 must be"
            ),
            (
                #"{"apps": [{"bundle_id": "b", "shared_secret": "other-shared-secret-0123456789", "small_business_program": [{"from": "2024-13-01"}]}]}"#,
                [:], "period 1 needs \"from\", a day such as 2021-01-01"
            ),
        ] as [(String?, [String: String], String)])
    func mistakes(file: String?, settings: [String: String], message: String) throws {
        do {
            _ = try Self.load(file, settings)
            Issue.record("accepted: \(file ?? "") \(settings)")
        } catch let error as ConfigurationError {
            #expect(error.description.contains(message), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }
}

extension MoneySettingsTests {
    @Test("a boolean is not a tax rate")
    func booleanRate() throws {
        #expect(throws: ConfigurationError.self) { _ = try Self.load(#"{"apps": [], "tax_rates": {"DEU": true}}"#) }
        #expect(throws: ConfigurationError.self) { _ = try Self.load(#"{"apps": [], "tax_rates": {"DEU": false}}"#) }
    }
}
