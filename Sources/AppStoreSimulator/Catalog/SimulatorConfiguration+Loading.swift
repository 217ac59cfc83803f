import Foundation

extension SimulatorConfiguration {
    /// A configuration for the apps of `catalog`, with secrets from `secrets` (`bundle id → secret`),
    /// else `defaultSecret` for apps not listed.
    ///
    /// Throws, naming the app, when an app of the catalog has no secret.
    public init(
        catalog: ProductCatalog,
        secrets: [String: String],
        defaultSecret: String? = nil,
        seed: UInt64 = 42,
        timing: SimTiming = SimTiming()
    ) throws {
        let apps = try catalog.bundleIDs.map { bundleID in
            guard let secret = secrets[bundleID] ?? defaultSecret else {
                throw SimulatorError("no shared secret for \(bundleID): pass --secret \(bundleID)=SECRET")
            }
            return SimApp(bundleID: bundleID, sharedSecret: secret)
        }
        guard !apps.isEmpty else { throw SimulatorError("the catalog has no product") }
        self.init(apps: apps, catalog: catalog, seed: seed, timing: timing)
    }

    /// Parses `BUNDLE_ID=SECRET` pairs into a dictionary.
    public static func parseSecrets(_ pairs: [String]) throws -> [String: String] {
        var secrets: [String: String] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw SimulatorError("expected BUNDLE_ID=SECRET, got \(pair)")
            }
            secrets[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        return secrets
    }
}
