import Foundation

/// Draws random customers from the scenarios, reproducibly: the same seed, count and
/// configuration always give the same specs.
public enum CustomerGenerator {
    /// `count` customers named `<prefix>-00001-<scenario>`, …; a share of them in sandbox,
    /// about half with an `appAccountToken`, notification versions spread by `notificationVersions`.
    ///
    /// Each customer's scenario is drawn from `scenarios` by weight, then one way to play it
    /// among every app's (so an app gets customers in proportion to what it sells that fits).
    public static func random(
        count: Int,
        seed: UInt64,
        configuration: SimulatorConfiguration,
        sandboxShare: Double = 0.2,
        namePrefix: String = "cust",
        notificationVersions: NotificationVersionMix = .v1,
        scenarios: [ScenarioKind] = ScenarioKind.allCases
    ) -> [CustomerSpec] {
        let catalog = configuration.catalog
        let options = scenarios.map { kind in
            (kind, configuration.apps.flatMap { kind.candidates(for: $0, catalog: catalog) })
        }.filter { !$0.1.isEmpty }
        return (0..<max(0, count)).compactMap { index in
            var random = SeededRandom(seed: seed, name: "customer-\(index)")
            guard let (kind, candidates) = weightedElement(options, using: &random),
                let choice = candidates.randomElement(using: &random)
            else { return nil }
            var target = choice.targets.randomElement(using: &random)
            if kind == .resubscribe, let product = choice.product {
                target = catalog.products(inGroup: product.groupID).randomElement(using: &random)
            }
            let sandbox = Double.random(in: 0..<1, using: &random) < sandboxShare
            let number = String(index + 1)
            let name = "\(namePrefix)-\(String(repeating: "0", count: max(0, 5 - number.count)))\(number)-\(kind.rawValue)"
            return CustomerSpec(
                name: name,
                scenario: kind,
                environment: sandbox ? .sandbox : .production,
                bundleID: choice.app.bundleID,
                productID: choice.productID,
                targetProductID: target?.productID,
                renewals: Int.random(in: 0...3, using: &random),
                notificationVersion: notificationVersions.version(for: name, seed: seed),
                appAccountToken: AppAccountToken.draw(for: name, seed: seed)
            )
        }
    }

    /// One of `options`, each as likely as its scenario's `weight`.
    private static func weightedElement<T>(_ options: [(ScenarioKind, T)], using random: inout SeededRandom) -> (ScenarioKind, T)? {
        let total = options.reduce(0) { $0 + $1.0.weight }
        guard total > 0 else { return nil }
        var draw = Int.random(in: 0..<total, using: &random)
        for option in options {
            if draw < option.0.weight { return option }
            draw -= option.0.weight
        }
        return nil
    }
}
