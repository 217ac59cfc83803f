import Foundation
import NIOConcurrencyHelpers

/// One verifyReceipt answer: Apple's `status` and the JSON body (always HTTP 200).
public struct VerifyReceiptAnswer: Sendable, Hashable {
    /// The `status` field.
    public let status: Int
    /// The JSON body, exactly as served.
    public let body: [UInt8]
}

extension AppStoreSimulator {
    /// Answers a verifyReceipt request body as Apple would at `now`, without faults.
    ///
    /// 21000 when the body is not a JSON object with `receipt-data`, 21002 when the receipt
    /// is not one the simulator issued, 21003 for a receipt of an unknown customer, 21007 for a
    /// sandbox receipt at the production endpoint, 21008 for the reverse, 21004 when
    /// `password` is not the app's shared secret, else 0 with the customer's state at `now`.
    public func verifyReceipt(body: [UInt8], endpoint: VerifyEndpoint, at now: Date = Date()) -> VerifyReceiptAnswer {
        guard let request = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
            let receiptData = request["receipt-data"] as? String
        else { return Self.statusAnswer(21000) }
        guard let token = ReceiptToken(encoded: receiptData) else { return Self.statusAnswer(21002) }
        guard let customer = customer(token.customer), customer.environment == token.environment,
            let app = configuration.app(customer.bundleID)
        else { return Self.statusAnswer(21003) }
        switch (token.environment, endpoint) {
        case (.sandbox, .production): return Self.statusAnswer(21007)
        case (.production, .sandbox): return Self.statusAnswer(21008)
        default: break
        }
        guard let password = request["password"] as? String, password == app.sharedSecret else {
            return Self.statusAnswer(21004)
        }
        let nonce = box.withLockedValue { state in
            state.receiptNonce += 1
            return state.receiptNonce
        }
        let latest = ReceiptToken(customer: customer.id, environment: customer.environment, nonce: nonce).encoded
        let json = VerifyReceiptRenderer.answer(
            customer: customer, app: app, state: customer.state(at: now), now: now,
            latestReceipt: latest, excludeOld: Self.flag(request["exclude-old-transactions"])
        )
        return VerifyReceiptAnswer(status: 0, body: json.bytes(escapeSlashes: true))
    }

    /// An answer carrying only `status` (Apple adds `is-retryable` to 21100–21199).
    static func statusAnswer(_ status: Int) -> VerifyReceiptAnswer {
        let retryable: Bool? = (21100...21199).contains(status) ? true : nil
        return VerifyReceiptAnswer(status: status, body: VerifyReceiptRenderer.status(status, retryable: retryable).bytes())
    }

    /// A JSON boolean, or the strings and numbers clients send instead.
    private static func flag(_ value: Any?) -> Bool {
        switch value {
        case let flag as Bool: flag
        case let text as String: text == "true" || text == "1"
        case let number as NSNumber: number.intValue != 0
        default: false
        }
    }
}
