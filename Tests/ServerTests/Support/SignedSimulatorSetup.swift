import AppStoreSimulator
import Foundation
import Testing

/// appstore-sim serving verifyReceipt and the App Store Server API, its signing root written
/// to a file: the settings a signed end-to-end test runs subscriptiond with (the demo apps,
/// the simulator's URLs, its root trusted, the first app's Apple id).
struct SignedSimulatorSetup {
    let server: SimulatorServer
    let settings: [String: String]
    private let root: URL

    static func start(_ simulator: AppStoreSimulator) async throws -> SignedSimulatorSetup {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sim-root-\(UUID().uuidString).pem")
        try Data(try simulator.signingPKI().root.pem.utf8).write(to: root)
        let server = try await SimulatorServer.start(simulator: simulator)
        let app = try #require(simulator.configuration.apps.first)
        let settings = try SimulatorAppsConfig.settings(for: simulator).merging([
            "VERIFY_RECEIPT_URL": server.productionURL.absoluteString,
            "VERIFY_RECEIPT_SANDBOX_URL": server.sandboxURL.absoluteString,
            "APPSTORE_ROOT_CERTIFICATES": root.path,
            "APPSTORE_APP_APPLE_ID": String(app.appAppleID),
        ]) { _, new in new }
        return SignedSimulatorSetup(server: server, settings: settings, root: root)
    }

    /// Stops the simulator's server and removes the root's file.
    func shutdown() async {
        await server.shutdown()
        try? FileManager.default.removeItem(at: root)
    }
}
