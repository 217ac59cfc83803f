import Foundation
import NIOConcurrencyHelpers

/// What customer support asks the App Store Server API: Look Up Order ID (production only, as
/// at Apple) and Get Refund History, answered from the customers' state at request time.
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
                    let customerState = customer.state(at: now)
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
        let state = customer.state(at: now)
        let refunded =
            (state.transactions.compactMap { transaction in
                transaction.cancellationDate.flatMap { date in
                    date <= now ? (date, transaction.transactionID, SignedTransactionRenderer.payload(transaction, context)) : nil
                }
            }
            + state.purchases.compactMap { purchase in
                purchase.cancellationDate.flatMap { date in
                    date <= now ? (date, purchase.transactionID, SignedTransactionRenderer.payload(purchase, context)) : nil
                }
            })
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        let page = try APIPage.slice(refunded, token: revision, invalid: .badRequest(4_000_005, "Invalid revision."))
        var signed: [JSONValue] = []
        do {
            for (_, _, payload) in page.items {
                signed.append(.string(try signer.sign(payload)))
            }
        } catch {
            throw .internalError(status: 500)
        }
        return .object([("signedTransactions", .array(signed)), ("revision", .string(page.nextToken)), ("hasMore", .bool(page.hasMore))])
    }
}
