import AppStoreSimulator
import ArgumentParser
import Foundation

/// `appstore-sim serve`: verifyReceipt for the simulated customers until stopped.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve verifyReceipt (production and sandbox paths) until SIGINT/SIGTERM.",
        discussion: """
            Example: appstore-sim serve --port 9000 --secret com.example.app=SECRET --demo --fault-rate 0.1

            The customers' receipts are in the truth (GET /control/truth, field receipt_data).
            """
    )

    @OptionGroup var customers: CustomerOptions
    @OptionGroup var server: ServerOptions
    @OptionGroup var faults: FaultOptions
    @OptionGroup var api: APIOptions

    @Option(help: "subscriptiond's notification URL, where test notifications requested through the API go.")
    var target: String?

    func run() async throws {
        let simulator = try customers.makeSimulator()
        simulator.setFaults(try faults.settings())
        try api.configure(simulator, state: customers.state)
        if let target {
            guard let url = URL(string: target), url.scheme == "http" else { throw ValidationError("--target must be an http:// URL") }
            simulator.setNotificationTarget(url)
        }
        let running = try await server.start(simulator)
        Console.log("\(simulator.customers.count) customers; stop with Ctrl-C")
        await SignalWaiter.wait()
        await running.shutdown()
    }
}
