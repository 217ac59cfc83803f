import AppStoreSimulator
import ArgumentParser
import Foundation

/// `appstore-sim money`: the simulator's own arithmetic of what subscriptiond's reports should say.
struct MoneyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "money",
        abstract:
            "Print the simulator's own numbers for subscriptiond's reports: active_subscriptions, active_trials and mrr at the end of --day, revenue from --from through --to.",
        discussion: """
            Production customers only, by DESIGN.md's definitions ("Money and reports"); amounts in the \
            report currency of the rates (the simulator's own, USD, as `appstore-sim rates` prints them; \
            or --rates FILE.csv). With --server, asks a running simulator (GET /control/money); otherwise \
            builds the customers from the options: use the same --seed, --demo/--customers, \
            --notifications-version and --end-ms as the run.
            """
    )

    @OptionGroup var customers: CustomerOptions

    @Option(help: "The UTC day at whose end the counts and MRR are taken (default: today).")
    var day: String?

    @Option(help: "The revenue's first UTC day (default: 29 days before --to).")
    var from: String?

    @Option(help: "The revenue's last UTC day, included (default: --day).")
    var to: String?

    @Option(help: "Exchange rates, date,currency,rate (default: the simulator's own into USD).")
    var rates: String?

    @Option(help: "Its report currency, for --rates.")
    var reportCurrency = "USD"

    @Option(help: "A running simulator's base URL, e.g. http://127.0.0.1:9000 (the simulator's own rates).")
    var server: String?

    func run() async throws {
        guard let query = MoneyQuery(day: day, from: from, to: to) else {
            throw ValidationError("--day, --from and --to are UTC days such as 2026-11-01, --from not after --to")
        }
        if let server {
            var parts = URLComponents(string: "\(server)/control/money")
            parts?.queryItems = [("day", day), ("from", from), ("to", to)].compactMap { name, value in
                value.map { URLQueryItem(name: name, value: $0) }
            }
            guard let url = parts?.url else { throw ValidationError("bad --server URL") }
            print(try await SimHTTPClient.send("GET", to: url).text)
            return
        }
        let table =
            try rates.map { try SimExchangeRates(csv: String(contentsOfFile: $0, encoding: .utf8), reportCurrency: reportCurrency) }
            ?? AppStoreSimulator.standardRates(through: query.day)
        let money = try customers.makeSimulator().money(day: query.day, revenueFrom: query.from, revenueTo: query.to, rates: table)
        print(money.jsonText(pretty: true))
    }
}
