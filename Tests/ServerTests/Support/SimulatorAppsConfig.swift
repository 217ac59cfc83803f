import AppStoreSimulator
import Foundation

/// `SUBSCRIPTIOND_CONFIG` for every app of a simulator besides the one `RunningService`
/// configures through the single-app variables (the paid app that grandfathers): its
/// secret, Apple ID, `grandfather` rule and `sandbox_entitlement`, as the simulator's
/// truth assumes them.
enum SimulatorAppsConfig {
    /// Writes the file and returns the setting that names it (empty when there is no other app).
    static func settings(for simulator: AppStoreSimulator) throws -> [String: String] {
        let others = simulator.configuration.apps.filter { $0.bundleID != RunningService.bundleID }
        guard !others.isEmpty else { return [:] }
        let apps: [[String: Any]] = others.map { app in
            var entry: [String: Any] = [
                "bundle_id": app.bundleID, "shared_secret": app.sharedSecret, "app_apple_id": app.appAppleID,
                "sandbox_entitlement": app.sandboxEntitlement.rawValue,
            ]
            if let rule = app.grandfather {
                entry["grandfather"] = ["before_version": rule.beforeVersion, "entitlement": rule.entitlement]
            }
            return entry
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sim-apps-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: ["apps": apps]).write(to: file)
        return ["SUBSCRIPTIOND_CONFIG": file.path]
    }
}
