import Crypto
import Foundation

/// Writes v2 notification bodies, `{"signedPayload":"<JWS>"}`, like Apple's (APPSTORE.md,
/// "version 2"): the payload and its nested transaction and renewal info all signed.
enum NotificationRendererV2 {
    /// The body for `event`, sent as `type`, with the id `uuid`.
    static func body(
        _ event: LifecycleEvent,
        type: NotificationTypeV2,
        uuid: String,
        context: SignedTransactionRenderer.Context,
        signer: JWSSigner
    ) throws -> [UInt8] {
        if let purchaseID = event.purchaseID {
            return try purchaseBody(event, purchaseID: purchaseID, type: type, uuid: uuid, context: context, signer: signer)
        }
        guard let subscription = event.state.subscription(inGroup: event.groupID) else {
            throw SimulatorError("event without a subscription in group \(event.groupID)")
        }
        let transaction = try signer.sign(SignedTransactionRenderer.payload(subscription.latest, context))
        let renewal = try signer.sign(
            SignedRenewalRenderer.payload(
                subscription, environment: context.environment, catalog: context.catalog, signedDate: context.signedDate
            ))
        let data =
            dataMembers(context) + [
                ("signedTransactionInfo", .string(transaction)),
                ("signedRenewalInfo", .string(renewal)),
                ("status", .int(statusCode(subscription.status(at: event.date)))),
            ] + (type.notificationType == "CONSUMPTION_REQUEST" ? [("consumptionRequestReason", .string("UNINTENDED_PURCHASE"))] : [])
        return try envelope(type: type, uuid: uuid, signedDate: context.signedDate, data: data, signer: signer)
    }

    /// `ONE_TIME_CHARGE` or `REFUND` of a one-time purchase: `data` carries the signed
    /// transaction only (no renewal info, no `status`: those belong to subscriptions).
    static func purchaseBody(
        _ event: LifecycleEvent,
        purchaseID: String,
        type: NotificationTypeV2,
        uuid: String,
        context: SignedTransactionRenderer.Context,
        signer: JWSSigner
    ) throws -> [UInt8] {
        guard let purchase = event.state.purchase(purchaseID) else {
            throw SimulatorError("event without the purchase \(purchaseID)")
        }
        let transaction = try signer.sign(SignedTransactionRenderer.payload(purchase, context))
        let data = dataMembers(context) + [("signedTransactionInfo", .string(transaction))]
        return try envelope(type: type, uuid: uuid, signedDate: context.signedDate, data: data, signer: signer)
    }

    /// A `TEST` notification: `data` names only the app and the environment.
    static func test(uuid: String, context: SignedTransactionRenderer.Context, signer: JWSSigner) throws -> [UInt8] {
        try envelope(type: .test, uuid: uuid, signedDate: context.signedDate, data: dataMembers(context), signer: signer)
    }

    /// A notification that carries a `summary` instead of `data` (`RENEWAL_EXTENSION` / `SUMMARY`).
    static func summary(
        uuid: String, summary: [(String, JSONValue)], type: NotificationTypeV2, signedDate: Date, signer: JWSSigner
    ) throws -> [UInt8] {
        try envelope(type: type, uuid: uuid, signedDate: signedDate, data: summary, dataKey: "summary", signer: signer)
    }

    /// v2's `status`: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    static func statusCode(_ status: SimStatus) -> Int {
        switch status {
        case .active: 1
        case .expired: 2
        case .billingRetry: 3
        case .gracePeriod: 4
        case .revoked: 5
        }
    }

    /// A stable notification id: a UUID-shaped SHA-256 of the seed, the customer and the place
    /// of the notification, so a re-run with the same seed sends the same ids.
    static func uuid(seed: UInt64, customer: String, sequence: Int) -> String {
        let digest = Array(SHA256.hash(data: Array("notification|\(seed)|\(customer)|\(sequence)".utf8)))
        let high = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = digest.dropFirst(8).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return AppAccountToken.uuid(high, low)
    }

    private static func dataMembers(_ context: SignedTransactionRenderer.Context) -> [(String, JSONValue)] {
        [
            ("appAppleId", .int(context.app.appAppleID)),
            ("bundleId", .string(context.app.bundleID)),
            ("bundleVersion", .string(context.app.bundleVersion)),
            ("environment", .string(context.environment.rawValue)),
        ]
    }

    private static func envelope(
        type: NotificationTypeV2, uuid: String, signedDate: Date, data: [(String, JSONValue)], dataKey: String = "data",
        signer: JWSSigner
    ) throws -> [UInt8] {
        var members: [(String, JSONValue)] = [("notificationType", .string(type.notificationType))]
        if let subtype = type.subtype {
            members.append(("subtype", .string(subtype)))
        }
        members += [
            ("notificationUUID", .string(uuid)),
            (dataKey, .object(data)),
            ("version", .string("2.0")),
            ("signedDate", SignedTransactionRenderer.millis(signedDate)),
        ]
        let payload = try signer.sign(.object(members))
        return JSONValue.object([("signedPayload", .string(payload))]).bytes()
    }
}
