import AppStoreSimulator
import ArgumentParser
import Foundation

/// `appstore-sim scenarios`: the lifecycles and the demo customers.
struct ScenariosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenarios",
        abstract: "List the scenario kinds (with the status each ends in) and the demo customers."
    )

    func run() async throws {
        print("scenarios:")
        for kind in ScenarioKind.allCases {
            print("  \(kind.rawValue.padding(toLength: 24, withPad: " ", startingAt: 0)) ends \(kind.finalStatus.rawValue)")
        }
        print("demo customers:")
        for spec in CustomerSpec.demo {
            print("  \(spec.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(spec.scenario.rawValue) \(spec.environment.rawValue) \(spec.productID ?? "")")
        }
    }
}
