import Composition
import Foundation
import Settings

/// The money settings commands read as the service does: `REPORT_CURRENCY` and the
/// `tax_rates` and `small_business_program` of `SUBSCRIPTIOND_CONFIG`; a bad one is a usage
/// error (exit 2) naming the setting.
enum MoneyEnvironment {
    /// `REPORT_CURRENCY`, or USD.
    static func reportCurrency() throws -> String {
        try usage { try MoneySettings.reportCurrency(ProcessInfo.processInfo.environment["REPORT_CURRENCY"]) }
    }

    /// Every money setting.
    static func settings() throws -> MoneySettings {
        let environment = ProcessInfo.processInfo.environment
        return try usage {
            try MoneySettings.load(reportCurrency: environment["REPORT_CURRENCY"], configurationFile: environment["SUBSCRIPTIOND_CONFIG"])
        }
    }

    private static func usage<T>(_ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch let error as ConfigurationError {
            throw CommandFailure.usage(error.description)
        }
    }
}
