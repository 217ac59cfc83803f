import Foundation

/// Everything needed to turn one customer's events into notifications of either version.
struct NotificationContext {
    var spec: CustomerSpec
    var app: SimApp
    var catalog: ProductCatalog
    var seed: UInt64
    /// The customer's `appTransactionId`, which every signed transaction carries.
    var appTransactionID: String
    var signer: JWSSigner?

    /// The notification for `event` in `version`, as the customer's `sequence`-th; `nil`
    /// when that version is silent about the event.
    func render(_ event: LifecycleEvent, version: NotificationVersion, sequence: Int, receipt: String) throws -> SimNotification? {
        if version == .v1 {
            guard let type = event.notification else { return nil }
            let body = NotificationRenderer.body(event, type: type, app: app, environment: spec.environment, receipt: receipt)
            return SimNotification(
                customerID: spec.name, sequence: sequence, type: type,
                environment: spec.environment, date: event.date, body: body
            )
        }
        guard let signer else {
            throw SimulatorError("\(spec.name): v2 notifications need the simulator's signing PKI")
        }
        let typeV2 = event.change.v2Type
        let uuid = NotificationRendererV2.uuid(seed: seed, customer: spec.name, sequence: sequence)
        let body = try NotificationRendererV2.body(
            event, type: typeV2, uuid: uuid, context: transactionContext(signedDate: event.date), signer: signer
        )
        return SimNotification(
            customerID: spec.name, sequence: sequence, version: .v2, type: event.notification,
            typeV2: typeV2, notificationUUID: uuid, environment: spec.environment, date: event.date, body: body
        )
    }

    /// The fields the signed payloads share.
    func transactionContext(signedDate: Date) -> SignedTransactionRenderer.Context {
        SignedTransactionRenderer.Context(
            app: app, environment: spec.environment, catalog: catalog,
            appAccountToken: spec.appAccountToken, appTransactionID: appTransactionID, signedDate: signedDate
        )
    }
}
