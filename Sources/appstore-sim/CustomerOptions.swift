import AppStoreSimulator
import ArgumentParser
import Foundation

/// Which apps, products and customers the simulator holds.
struct CustomerOptions: ParsableArguments {
    @Option(help: "Product catalog JSON (DESIGN.md format; optional \"level\" per product). Default: the demo catalog.")
    var catalog: String?

    @Option(
        name: .customLong("secret"),
        help:
            "An app's shared secret, BUNDLE_ID=SECRET (repeatable). Default: $APPSTORE_SHARED_SECRET, or demo-shared-secret for the demo app (com.example.app) and demo-paidapp-shared-secret for the paid demo app (com.example.paidapp)."
    )
    var secrets: [String] = []

    @Option(help: "Seed for ids, random customers, scenario details and faults.")
    var seed: UInt64 = 42

    @Option(help: "Random customers drawn from every scenario.")
    var customers: Int = 0

    @Flag(
        help:
            "Add the named demo customers (alice-trial-renews, bob-billing-grace, ..., pam-lifetime, yara-paid-1.9, ...; see `appstore-sim scenarios`)."
    )
    var demo = false

    @Option(help: "Share of random customers in sandbox (0...1).")
    var sandboxShare: Double = 0.2

    @Option(help: "Name prefix of random customers.")
    var namePrefix = "cust"

    @Option(
        help:
            "Notification version the customers' apps receive: 1, 2, mixed (each customer 1, 2 or migrating, by seed) or migrating (v1 first, then v2)."
    )
    var notificationsVersion: NotificationVersionMix = .v1

    @OptionGroup var state: StateOptions

    @Option(help: "Scenario end as milliseconds since 1970 (default: now); fixes every date for reproducible output.")
    var endMs: Int64?

    /// The end of every scenario.
    var end: Date {
        endMs.map { Date(timeIntervalSince1970: Double($0) / 1_000) } ?? Date()
    }

    /// A simulator with the requested customers.
    func makeSimulator() throws -> AppStoreSimulator {
        let secrets = try SimulatorConfiguration.parseSecrets(self.secrets)
        let envSecret = ProcessInfo.processInfo.environment["APPSTORE_SHARED_SECRET"]
        let configuration: SimulatorConfiguration
        if let catalog {
            let products = try ProductCatalog(json: Array(try Data(contentsOf: URL(fileURLWithPath: catalog))))
            configuration = try SimulatorConfiguration(catalog: products, secrets: secrets, defaultSecret: envSecret, seed: seed)
        } else {
            let bundle = SimulatorConfiguration.demoBundleID
            let secret = secrets[bundle] ?? envSecret ?? SimulatorConfiguration.demoSharedSecret
            let paidSecret = secrets[SimulatorConfiguration.demoPaidAppBundleID] ?? SimulatorConfiguration.demoPaidAppSharedSecret
            configuration = .demo(seed: seed, sharedSecret: secret, paidAppSharedSecret: paidSecret)
        }
        // The persisted PKI only when something is signed (v2 notifications, or API answers once
        // `api-key` made a key), so plain v1 runs leave no state behind.
        let hasAPIKey = try SimAPIKey.load(from: state.directory) != nil
        let signs = notificationsVersion != .v1 || hasAPIKey
        let pki = signs ? try state.pki() : nil
        let simulator = AppStoreSimulator(configuration: configuration, pki: pki)
        if demo {
            try simulator.addDemoCustomers(notificationVersions: notificationsVersion, endingAt: end)
        }
        if customers > 0 {
            try simulator.addRandomCustomers(
                customers, sandboxShare: sandboxShare, namePrefix: namePrefix,
                notificationVersions: notificationsVersion, endingAt: end
            )
        }
        return simulator
    }
}

extension NotificationVersionMix: ExpressibleByArgument {}

extension SimEnvironment: ExpressibleByArgument {}
