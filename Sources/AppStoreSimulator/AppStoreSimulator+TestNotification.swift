import Foundation
import NIOConcurrencyHelpers

extension AppStoreSimulator {
    /// A v2 `TEST` notification for the app `bundleID` (default: the first app), as Apple
    /// sends after "Request a Test Notification"; each call gets its own id, stable for the
    /// same seed, call count and date (so separate `appstore-sim test-notification` runs differ).
    public func testNotification(
        bundleID: String? = nil,
        environment: SimEnvironment = .sandbox,
        at date: Date = Date()
    ) throws -> SimNotification {
        let bundle = bundleID ?? configuration.apps.first?.bundleID ?? ""
        guard let app = configuration.app(bundle) else {
            throw SimulatorError("unknown app \(bundle)")
        }
        let (signer, count) = try box.withLockedValue { state in
            state.testNotifications += 1
            return (try state.signer(), state.testNotifications)
        }
        let millis = Int64((date.timeIntervalSince1970 * 1_000).rounded())
        let uuid = NotificationRendererV2.uuid(seed: configuration.seed, customer: "test-\(bundle)-\(millis)", sequence: count)
        let context = SignedTransactionRenderer.Context(
            app: app, environment: environment, catalog: configuration.catalog, appAccountToken: nil, signedDate: date
        )
        return SimNotification(
            customerID: "", sequence: count - 1, version: .v2, type: nil, typeV2: .test,
            notificationUUID: uuid, environment: environment, date: date,
            body: try NotificationRendererV2.test(uuid: uuid, context: context, signer: signer)
        )
    }
}
