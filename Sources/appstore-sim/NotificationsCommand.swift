import AppStoreSimulator
import ArgumentParser

/// `appstore-sim notifications`: the bodies (v1 JSON or v2 `signedPayload`), one JSON per line, without sending them.
struct NotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "Print the customers' notification bodies (v1 or v2), one per line, in delivery order."
    )

    @OptionGroup var customers: CustomerOptions

    @Option(help: "Repeat every notification this many times.")
    var duplicates = 1

    @Flag(help: "Shuffle (seeded by --seed).")
    var shuffle = false

    func run() async throws {
        let simulator = try customers.makeSimulator()
        for notification in DeliveryPlan.order(simulator.notifications(), duplicates: duplicates, shuffle: shuffle, seed: customers.seed) {
            print(notification.text)
        }
    }
}
