import AppStoreSimulator
import ArgumentParser
import Foundation

/// `appstore-sim catalog`: the product catalog in DESIGN.md's format.
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Print the product catalog (the demo one, or --catalog) in DESIGN.md's format, entitlements included.",
        discussion:
            "Feed it to `subscriptionctl products import` so subscriptiond and the simulator share one catalog. Each auto-renewable product carries an extra \"level\" (1 = highest level of service in its group)."
    )

    @OptionGroup var customers: CustomerOptions

    func run() async throws {
        print(try customers.makeSimulator().configuration.catalog.jsonText())
    }
}
