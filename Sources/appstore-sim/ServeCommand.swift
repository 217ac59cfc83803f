import AppStoreSimulator
import ArgumentParser

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

    func run() async throws {
        let simulator = try customers.makeSimulator()
        simulator.setFaults(try faults.settings())
        let running = try await server.start(simulator)
        Console.log("\(simulator.customers.count) customers; stop with Ctrl-C")
        await SignalWaiter.wait()
        await running.shutdown()
    }
}
