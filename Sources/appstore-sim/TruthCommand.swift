import AppStoreSimulator
import ArgumentParser
import Foundation

/// `appstore-sim truth`: what subscriptiond should say, from a running simulator or built anew.
struct TruthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "truth",
        abstract: "Print the truth JSON: per customer, each subscription's status, entitlement and eligibility.",
        discussion: """
            With --server, asks a running simulator (GET /control/truth). Otherwise builds the customers \
            from the options: use the same --seed, --customers/--demo and --end-ms as the run.
            """
    )

    @OptionGroup var customers: CustomerOptions

    @Option(help: "A running simulator's base URL, e.g. http://127.0.0.1:9000.")
    var server: String?

    @Option(help: "The moment of the truth, milliseconds since 1970 (default: now).")
    var atMs: Int64?

    func run() async throws {
        if let server {
            var url = "\(server)/control/truth"
            if let atMs { url += "?at_ms=\(atMs)" }
            guard let parsed = URL(string: url) else { throw ValidationError("bad --server URL") }
            let answer = try await SimHTTPClient.send("GET", to: parsed)
            print(answer.text)
            return
        }
        let at = atMs.map { Date(timeIntervalSince1970: Double($0) / 1_000) } ?? Date()
        print(try customers.makeSimulator().truth(at: at).jsonText(pretty: true))
    }
}
