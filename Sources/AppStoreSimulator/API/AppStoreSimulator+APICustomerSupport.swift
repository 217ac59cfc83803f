import Foundation
import NIOConcurrencyHelpers

/// What customer support asks and tells the App Store Server API: Look Up Order ID
/// (production only, as at Apple), Get Refund History, and Send Consumption Information,
/// answered from the customers' state at request time.
extension AppStoreSimulator {
    /// The order id Apple's email receipt would show for the purchase `transactionID`: ten
    /// characters like Apple's (`MK5TTTVWJH`), one order per transaction here.
    public func orderID(ofTransaction transactionID: String) -> String {
        Self.orderID(transactionID: transactionID, seed: configuration.seed)
    }

    static func orderID(transactionID: String, seed: UInt64) -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var value = SeededRandom.fnv1a("order-\(seed)-\(transactionID)")
        var id = "M"
        for _ in 0..<9 {
            id.append(alphabet[Int(value % UInt64(alphabet.count))])
            value /= UInt64(alphabet.count)
        }
        return id
    }

    /// Look Up Order ID: `{"status": 0, "signedTransactions": [...]}` for an order of one of
    /// the app's production customers, `{"status": 1}` for any other id.
    func apiOrderLookup(_ orderID: String, bundleID: String, now: Date) throws(APIError) -> JSONValue {
        let found: (payload: JSONValue, signer: JWSSigner)?
        do {
            found = try box.withLockedValue { state in
                for customer in state.customers where customer.environment == .production && customer.bundleID == bundleID {
                    let customerState = Self.extendedState(customer, state.api.extensions, at: now)
                    let context = try apiContext(customer, now: now)
                    if let transaction = customerState.transactions.first(where: {
                        self.orderID(ofTransaction: $0.transactionID) == orderID
                    }) {
                        return (SignedTransactionRenderer.payload(transaction, context), try state.signer())
                    }
                    if let purchase = customerState.purchases.first(where: { self.orderID(ofTransaction: $0.transactionID) == orderID }) {
                        return (SignedTransactionRenderer.payload(purchase, context), try state.signer())
                    }
                }
                return nil
            }
        } catch {
            throw .internalError(status: 500)
        }
        guard let found else { return .object([("status", .int(1))]) }
        do {
            return .object([("status", .int(0)), ("signedTransactions", .array([.string(try found.signer.sign(found.payload))]))])
        } catch {
            throw .internalError(status: 500)
        }
    }

    /// Get Refund History v2: the refunded transactions of the customer owning
    /// `transactionID` (subscription periods and one-time purchases, refunded by `now`), by
    /// refund date, 20 a page; `revision` as the previous page handed out.
    func apiRefundHistory(
        _ transactionID: String, revision: String?, environment: SimEnvironment, bundleID: String, now: Date
    ) throws(APIError) -> JSONValue {
        let (customer, signer) = try apiCustomer(transactionID, environment: environment, bundleID: bundleID)
        let context = try apiContext(customer, now: now)
        let state = apiState(customer, at: now)
        let refunded = datedPayloads(
            state, context, transactionDate: { $0.cancellationDate.flatMap { $0 <= now ? $0 : nil } },
            purchaseDate: { $0.cancellationDate.flatMap { $0 <= now ? $0 : nil } })
        let (page, signed) = try signedPage(refunded, revision: revision, signer: signer)
        return .object([("signedTransactions", .array(signed)), ("revision", .string(page.nextToken)), ("hasMore", .bool(page.hasMore))])
    }

    /// Send Consumption Information (v2): a body for one of the app's transactions in this
    /// environment, with `customerConsented` true and a known `deliveryStatus`, is accepted
    /// (202) and kept; anything else gets Apple's 400.
    func apiConsumption(
        _ transactionID: String, body: [UInt8], environment: SimEnvironment, bundleID: String
    ) throws(APIError) {
        _ = try apiCustomer(transactionID, environment: environment, bundleID: bundleID)
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            throw .badRequest(4_000_000, "Invalid request.")
        }
        guard object["customerConsented"] as? Bool == true else {
            throw .badRequest(4_000_000, "InvalidCustomerConsentedError: customerConsented must be true.")
        }
        let deliveryStatuses = [
            "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER",
        ]
        guard let delivery = object["deliveryStatus"] as? String, deliveryStatuses.contains(delivery),
            object["sampleContentProvided"] is Bool
        else {
            throw .badRequest(4_000_000, "Invalid deliveryStatus or sampleContentProvided.")
        }
        if let preference = object["refundPreference"], !["DECLINE", "GRANT_FULL", "GRANT_PRORATED"].contains(preference as? String ?? "") {
            throw .badRequest(4_000_000, "InvalidRefundPreferenceError.")
        }
        let text = String(decoding: body, as: UTF8.self)
        box.withLockedValue { $0.api.consumptionAnswers.append((transactionID, text)) }
    }

    /// Set App Account Token (API 1.16): `{"appAccountToken": UUID}` for one of the app's
    /// original transactions in this environment; from then on every payload of the customer
    /// carries it. A body without a UUID is Apple's 400 `InvalidAppAccountTokenUUIDError`; an
    /// id that is not an original transaction of the app, 404.
    func apiSetAppAccountToken(
        _ originalTransactionID: String, body: [UInt8], environment: SimEnvironment, bundleID: String
    ) throws(APIError) {
        let (customer, _) = try apiCustomer(originalTransactionID, environment: environment, bundleID: bundleID)
        let state = customer.state(at: Date())
        guard
            state.subscriptions.contains(where: { $0.originalTransactionID == originalTransactionID })
                || state.purchases.contains(where: { $0.transactionID == originalTransactionID })
        else {
            throw .originalTransactionNotFound
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
            let text = object["appAccountToken"] as? String, let token = UUID(uuidString: text)
        else {
            throw .badRequest(4_000_183, "Invalid request. The app account token field must be a valid UUID.")
        }
        setAppAccountTokens.withLockedValue { $0[customer.id] = token.uuidString.lowercased() }
    }

    /// Finish Transaction (API 1.20): the developer's server delivered the purchase
    /// `transactionID` (any transaction of the app in this environment, as `anyTransactionId`
    /// allows); an unknown id is Apple's 404. Finishing again is accepted, as Apple does.
    func apiFinishTransaction(_ transactionID: String, environment: SimEnvironment, bundleID: String, now: Date) throws(APIError) {
        let (customer, _) = try apiCustomer(transactionID, environment: environment, bundleID: bundleID)
        let state = apiState(customer, at: now)
        guard state.transactions.contains(where: { $0.transactionID == transactionID }) || state.purchase(transactionID) != nil else {
            throw .transactionNotFound
        }
        box.withLockedValue { $0.api.finishedTransactions.append(transactionID) }
    }

    /// The transactions finished so far, oldest first (one entry per accepted call).
    public func finishedTransactions() -> [String] {
        box.withLockedValue { $0.api.finishedTransactions }
    }

    /// The Send Consumption Information bodies accepted so far, oldest first.
    public func consumptionAnswers() -> [(transactionID: String, body: String)] {
        box.withLockedValue { $0.api.consumptionAnswers }
    }
}
