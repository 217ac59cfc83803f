import AppStoreSimulator
import ArgumentParser
import Foundation

/// `appstore-sim rates`: the exchange rates the simulator converts with, for `subscriptionctl rates import`.
struct RatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rates",
        abstract: "Print the simulator's exchange rates into USD as CSV (date,currency,rate), for `subscriptionctl rates import`.",
        discussion:
            "One rate per currency (CAD, EUR, GBP, JPY) on the first of every month, from three years before --through to its month; `appstore-sim money` converts with the same table."
    )

    @Option(help: "The last UTC day the rates must cover (default: today).")
    var through: String?

    func run() async throws {
        guard let day = through.map(SimDay.parse) ?? Date() else { throw ValidationError("--through is a UTC day such as 2026-11-01") }
        print(AppStoreSimulator.standardRates(through: day).csv, terminator: "")
    }
}
