import Foundation
import Subscriptions

/// What the estimated proceeds and the reports need beside the facts (DESIGN.md, "Money and
/// reports"): the currency reports are in (`REPORT_CURRENCY`), tax rates per storefront
/// (`"tax_rates": {"DEU": 0.19}` at the top of `SUBSCRIPTIOND_CONFIG`) and each app's Small
/// Business Program periods (`"small_business_program": [{"from": "2021-01-01", "until": null}]`).
public struct MoneySettings: Sendable, Equatable {
    public var reportCurrency: String
    public var taxRates: TaxRates
    public var smallBusiness: [String: SmallBusinessProgram]

    public init(reportCurrency: String = "USD", taxRates: TaxRates = TaxRates(), smallBusiness: [String: SmallBusinessProgram] = [:]) {
        self.reportCurrency = reportCurrency
        self.taxRates = taxRates
        self.smallBusiness = smallBusiness
    }

    /// The Small Business Program periods of `bundleID` (none: not a member).
    public func smallBusinessProgram(of bundleID: String) -> SmallBusinessProgram {
        smallBusiness[bundleID] ?? SmallBusinessProgram()
    }

    /// What prices single purchases and estimates their proceeds under these settings.
    public var purchasePricing: PurchasePricing {
        PurchasePricing(taxRates: taxRates, smallBusiness: smallBusiness)
    }

    /// `REPORT_CURRENCY` as given (default USD), checked.
    public static func reportCurrency(_ text: String?) throws -> String {
        let currency = text.flatMap { $0.isEmpty ? nil : $0 } ?? "USD"
        guard ExchangeRates.isCurrencyCode(currency) else {
            throw ConfigurationError("REPORT_CURRENCY", "must be three upper-case letters such as USD, got \"\(currency)\"")
        }
        return currency
    }

    /// The settings of `REPORT_CURRENCY` and of the `SUBSCRIPTIOND_CONFIG` file at `path`
    /// (which the apps' loader has read and checked for unknown keys already).
    public static func load(reportCurrency: String?, configurationFile path: String?) throws -> MoneySettings {
        var settings = MoneySettings(reportCurrency: try Self.reportCurrency(reportCurrency))
        guard let path, !path.isEmpty, let data = FileManager.default.contents(atPath: path),
            let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return settings }
        let setting = "SUBSCRIPTIOND_CONFIG"
        if let rates = file["tax_rates"] {
            settings.taxRates = try taxRates(rates, setting: setting)
        }
        for app in file["apps"] as? [[String: Any]] ?? [] {
            guard let bundleID = app["bundle_id"] as? String, let periods = app["small_business_program"] else { continue }
            settings.smallBusiness[bundleID] = try smallBusinessProgram(
                periods, setting: "\(setting) small_business_program of \(bundleID)")
        }
        return settings
    }

    private static func taxRates(_ value: Any, setting: String) throws -> TaxRates {
        guard let object = value as? [String: Any] else {
            throw ConfigurationError(setting, "tax_rates must be an object of storefront codes and rates, such as {\"DEU\": 0.19}")
        }
        var rates: [String: Decimal] = [:]
        for (storefront, rate) in object.sorted(by: { $0.key < $1.key }) {
            guard ExchangeRates.isCurrencyCode(storefront) else {
                throw ConfigurationError(
                    setting, "tax_rates has \"\(storefront)\", which is not a storefront code (three upper-case letters, such as DEU)")
            }
            // JSON's true and false read as NSNumbers too; their type code is a char.
            guard let number = rate as? NSNumber, !["c", "B"].contains(String(cString: number.objCType)),
                number.doubleValue >= 0, number.doubleValue < 1
            else {
                throw ConfigurationError(setting, "tax_rates of \(storefront) must be a number from 0 up to 1 (0.19 for 19%)")
            }
            rates[storefront] = Decimal(string: number.stringValue, locale: Locale(identifier: "en_US_POSIX")) ?? number.decimalValue
        }
        return TaxRates(rates)
    }

    private static func smallBusinessProgram(_ value: Any, setting: String) throws -> SmallBusinessProgram {
        guard let items = value as? [Any] else {
            throw ConfigurationError(setting, "must be a list of periods such as [{\"from\": \"2021-01-01\", \"until\": null}]")
        }
        let periods = try items.enumerated().map { index, item in
            guard let period = item as? [String: Any], Set(period.keys).isSubset(of: ["from", "until"]) else {
                throw ConfigurationError(
                    setting, "period \(index + 1) must be {\"from\": \"YYYY-MM-DD\", \"until\": \"YYYY-MM-DD\" or null}")
            }
            guard let fromText = period["from"] as? String, let from = UTCDay.parse(fromText) else {
                throw ConfigurationError(setting, "period \(index + 1) needs \"from\", a day such as 2021-01-01")
            }
            var until: Date?
            switch period["until"] {
            case nil, is NSNull: until = nil
            case let text as String:
                guard let day = UTCDay.parse(text), day > from else {
                    throw ConfigurationError(setting, "period \(index + 1): \"until\" must be a day after \"from\", or null")
                }
                until = day
            default:
                throw ConfigurationError(setting, "period \(index + 1): \"until\" must be a day after \"from\", or null")
            }
            return SmallBusinessProgram.Period(from: from, until: until)
        }
        return SmallBusinessProgram(periods: periods)
    }
}
