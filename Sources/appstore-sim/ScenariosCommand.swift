import AppStoreSimulator
import ArgumentParser
import Foundation

/// `appstore-sim scenarios`: the lifecycles and the demo customers.
struct ScenariosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenarios",
        abstract: "List the scenario kinds (with the status each one's subscription ends in) and the demo customers."
    )

    func run() async throws {
        print("scenarios:")
        for kind in ScenarioKind.allCases {
            let ends = kind.finalStatus.map { "ends \($0.rawValue)" } ?? "no subscription"
            print("  \(kind.rawValue.padding(toLength: 26, withPad: " ", startingAt: 0)) \(ends)")
        }
        print("demo customers:")
        for spec in CustomerSpec.demo {
            let app = spec.bundleID.map { " \($0)" } ?? ""
            let version = spec.originalApplicationVersion.map { " (original version \($0))" } ?? ""
            let storefront = spec.storefront == SimStorefront.usa.code ? "" : " in \(spec.storefront)"
            print(
                "  \(spec.name.padding(toLength: 26, withPad: " ", startingAt: 0)) \(spec.scenario.rawValue) \(spec.environment.rawValue)\(app) \(spec.productID ?? "")\(version)\(storefront)"
            )
        }
    }
}
