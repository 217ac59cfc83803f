import Foundation
import NIOConcurrencyHelpers

/// The App Store Server API's transaction endpoints (and the app transaction), answered from
/// the customers' state at request time and signed like v2 notifications.
extension AppStoreSimulator {
    /// Checks the bearer token, then the rate limit (Look Up Order ID's and Get Refund
    /// History's own when `customerLookup`); returns the token's bundle id.
    func apiAuthorize(
        authorization: String?, environment: SimEnvironment, customerLookup: Bool = false, now: Date
    ) -> Result<String, APIError> {
        box.withLockedValue { state in
            let verifier = APITokenVerifier(key: state.api.key, bundleIDs: Set(configuration.apps.map(\.bundleID)))
            let verdict = verifier.verify(authorization: authorization, now: now)
            guard case .success(let bundleID) = verdict else { return verdict }
            if let held = state.api.held, now < held.until {
                return .failure(.rateLimited(retryAfter: Int64(((now.timeIntervalSince1970 + held.retryAfter) * 1_000).rounded(.down))))
            }
            let key = environment.rawValue + "|" + bundleID
            if let retry = customerLookup ? state.api.customerLookupRate.admit(key, now: now) : state.api.rate.admit(key, now: now) {
                return .failure(.rateLimited(retryAfter: retry))
            }
            return .success(bundleID)
        }
    }

    /// Get All Subscription Statuses: every group of the customer owning `transactionID`.
    func apiSubscriptionStatuses(
        _ transactionID: String, environment: SimEnvironment, bundleID: String, now: Date
    ) throws(APIError) -> JSONValue {
        let (customer, signer) = try apiCustomer(transactionID, environment: environment, bundleID: bundleID)
        let context = try apiContext(customer, now: now)
        var groups: [JSONValue] = []
        do {
            for subscription in apiState(customer, at: now).subscriptions {
                let transaction = try signer.sign(SignedTransactionRenderer.payload(subscription.latest, context))
                let renewal = try signer.sign(
                    SignedRenewalRenderer.payload(
                        subscription, environment: environment, catalog: context.catalog, signedDate: now))
                let last = JSONValue.object([
                    ("originalTransactionId", .string(subscription.originalTransactionID)),
                    ("status", .int(NotificationRendererV2.statusCode(subscription.status(at: now)))),
                    ("signedTransactionInfo", .string(transaction)),
                    ("signedRenewalInfo", .string(renewal)),
                ])
                groups.append(
                    .object([("subscriptionGroupIdentifier", .string(subscription.groupID)), ("lastTransactions", .array([last]))]))
            }
        } catch {
            throw .internalError(status: 500)
        }
        return .object(apiAppMembers(context) + [("data", .array(groups))])
    }

    /// Get Transaction History v2: the customer's transactions (subscription periods and
    /// one-time purchases) by purchase date, 20 a page; `revision` is the offset of the page,
    /// as handed out by the previous one.
    func apiTransactionHistory(
        _ transactionID: String, revision: String?, environment: SimEnvironment, bundleID: String, now: Date
    ) throws(APIError) -> JSONValue {
        let (customer, signer) = try apiCustomer(transactionID, environment: environment, bundleID: bundleID)
        let context = try apiContext(customer, now: now)
        let state = apiState(customer, at: now)
        let all = datedPayloads(state, context, transactionDate: \.purchaseDate, purchaseDate: \.purchaseDate)
        let (page, signed) = try signedPage(all, revision: revision, signer: signer)
        return .object([
            ("revision", .string(page.nextToken)),
            ("bundleId", .string(bundleID)),
            ("appAppleId", .int(context.app.appAppleID)),
            ("environment", .string(environment.rawValue)),
            ("hasMore", .bool(page.hasMore)),
            ("signedTransactions", .array(signed)),
        ])
    }

    /// The payloads of the customer's subscription periods and one-time purchases that have a
    /// date by `transactionDate` / `purchaseDate` (nil leaves one out), by date then id.
    func datedPayloads(
        _ state: CustomerState, _ context: SignedTransactionRenderer.Context, transactionDate: (SimTransaction) -> Date?,
        purchaseDate: (SimPurchase) -> Date?
    ) -> [(Date, String, JSONValue)] {
        let periods = state.transactions.compactMap { transaction in
            transactionDate(transaction).map { ($0, transaction.transactionID, SignedTransactionRenderer.payload(transaction, context)) }
        }
        let purchases = state.purchases.compactMap { purchase in
            purchaseDate(purchase).map { ($0, purchase.transactionID, SignedTransactionRenderer.payload(purchase, context)) }
        }
        return (periods + purchases).sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    }

    /// The page of `items` (dated, ordered payloads) that `revision` names, each payload signed.
    func signedPage(
        _ items: [(Date, String, JSONValue)], revision: String?, signer: JWSSigner
    ) throws(APIError) -> (page: APIPage<(Date, String, JSONValue)>, signed: [JSONValue]) {
        let page = try APIPage.slice(items, token: revision, invalid: .badRequest(4_000_005, "Invalid revision."))
        do {
            return (page, try page.items.map { .string(try signer.sign($0.2)) })
        } catch {
            throw .internalError(status: 500)
        }
    }

    /// Get Transaction Info: the transaction itself (a subscription period or a one-time
    /// purchase), signed now.
    func apiTransactionInfo(_ transactionID: String, environment: SimEnvironment, bundleID: String, now: Date) throws(APIError) -> JSONValue
    {
        let (customer, signer) = try apiCustomer(transactionID, environment: environment, bundleID: bundleID)
        let context = try apiContext(customer, now: now)
        let state = apiState(customer, at: now)
        let payload: JSONValue
        if let transaction = state.transactions.first(where: { $0.transactionID == transactionID }) {
            payload = SignedTransactionRenderer.payload(transaction, context)
        } else if let purchase = state.purchase(transactionID) {
            payload = SignedTransactionRenderer.payload(purchase, context)
        } else {
            throw .transactionNotFound
        }
        do {
            return .object([("signedTransactionInfo", .string(try signer.sign(payload)))])
        } catch {
            throw .internalError(status: 500)
        }
    }

    /// Get App Transaction Info: the AppTransaction of the customer owning `transactionID` (any
    /// of their subscription periods or one-time purchases), signed now. Every customer has
    /// one, whether or not their device was handed a `signedAppTransaction`; it names the
    /// customer's original application version (`1.0` in apps without a grandfather rule).
    func apiAppTransactionInfo(
        _ transactionID: String, environment: SimEnvironment, bundleID: String, now: Date
    ) throws(APIError) -> JSONValue {
        let (customer, signer) = try apiCustomer(transactionID, environment: environment, bundleID: bundleID)
        let context = try apiContext(customer, now: now)
        let facts = AppTransactionRenderer.facts(
            customer.spec, app: context.app, number: customer.number,
            originalApplicationVersion: customer.originalApplicationVersion,
            installDate: customer.installDate, signedDate: now, seed: configuration.seed
        )
        do {
            return .object([("signedAppTransactionInfo", .string(try signer.sign(AppTransactionRenderer.payload(facts))))])
        } catch {
            throw .internalError(status: 500)
        }
    }

    /// The customer of `bundleID` in `environment` owning `transactionID` (ever), and the signer.
    func apiCustomer(_ transactionID: String, environment: SimEnvironment, bundleID: String) throws(APIError) -> (SimCustomer, JWSSigner) {
        let found: (SimCustomer, JWSSigner)?
        do {
            found = try box.withLockedValue { state in
                let signer = try state.signer()
                let customer = state.customers.first { customer in
                    customer.environment == environment && customer.bundleID == bundleID
                        && customer.ownsTransaction(transactionID)
                }
                return customer.map { ($0, signer) }
            }
        } catch {
            throw .internalError(status: 500)
        }
        guard let found else { throw .transactionNotFound }
        return found
    }

    /// What the signed payloads of `customer` share, signed at `now`.
    func apiContext(_ customer: SimCustomer, now: Date) throws(APIError) -> SignedTransactionRenderer.Context {
        guard let app = configuration.app(customer.bundleID) else { throw .internalError(status: 500) }
        return SignedTransactionRenderer.Context(
            app: app, environment: customer.environment, catalog: configuration.catalog,
            appAccountToken: setAppAccountTokens.withLockedValue { $0[customer.id] } ?? customer.spec.appAccountToken,
            appTransactionID: IDAllocator(seed: configuration.seed, customerNumber: customer.number).appTransactionID, signedDate: now
        )
    }

    /// `environment`, `bundleId`, `appAppleId`.
    func apiAppMembers(_ context: SignedTransactionRenderer.Context) -> [(String, JSONValue)] {
        [
            ("environment", .string(context.environment.rawValue)),
            ("bundleId", .string(context.app.bundleID)),
            ("appAppleId", .int(context.app.appAppleID)),
        ]
    }
}

extension SimCustomer {
    /// Whether `transactionID` is one of the customer's transactions or purchases at any point
    /// of their life.
    func ownsTransaction(_ transactionID: String) -> Bool {
        guard let state = events.last?.state else { return false }
        return state.transactions.contains { $0.transactionID == transactionID } || state.purchase(transactionID) != nil
    }
}
