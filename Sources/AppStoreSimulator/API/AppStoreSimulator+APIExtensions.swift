import Foundation
import NIOConcurrencyHelpers

/// Renewal-date extensions, as the App Store Server API grants them: Extend a Subscription
/// Renewal Date, Extend Subscription Renewal Dates for All Active Subscribers and its status.
/// A granted extension moves the current period's expiry in every later answer, and sends
/// `RENEWAL_EXTENDED` (and a mass request's `RENEWAL_EXTENSION` / `SUMMARY`) to the
/// notification target.
extension AppStoreSimulator {
    /// How long a mass extension request stays incomplete before its status says complete
    /// (Apple works through subscribers over hours; tests want seconds).
    public func setMassExtensionDuration(_ seconds: TimeInterval) {
        box.withLockedValue { $0.api.massExtensionDuration = max(0, seconds) }
    }

    /// How many renewal-date extensions the subscription `originalTransactionID` was granted.
    public func extensionCount(of originalTransactionID: String) -> Int {
        box.withLockedValue { $0.api.extensions.filter { $0.originalTransactionID == originalTransactionID }.count }
    }

    /// The customer's state at `now`, with the extensions granted by then.
    func apiState(_ customer: SimCustomer, at now: Date) -> CustomerState {
        let granted = box.withLockedValue { $0.api.extensions }
        return Self.extendedState(customer, granted, at: now)
    }

    static func extendedState(_ customer: SimCustomer, _ extensions: [SimExtension], at now: Date) -> CustomerState {
        var state = customer.state(at: now)
        for grant in extensions where grant.customerID == customer.id && grant.date <= now {
            guard let s = state.subscriptions.firstIndex(where: { $0.originalTransactionID == grant.originalTransactionID }),
                let t = state.subscriptions[s].transactions.firstIndex(where: { $0.transactionID == grant.transactionID })
            else { continue }
            state.subscriptions[s].transactions[t].expiresDate.addTimeInterval(TimeInterval(grant.days) * 86_400)
        }
        return state
    }

    /// Extend a Subscription Renewal Date: `{"originalTransactionId","webOrderLineItemId","success","effectiveDate"}`
    /// and the `RENEWAL_EXTENDED` to send. The same `requestIdentifier` again answers the same
    /// and extends nothing more.
    func apiExtend(
        _ originalTransactionID: String, body: [UInt8], environment: SimEnvironment, bundleID: String, now: Date
    ) throws(APIError) -> (answer: JSONValue, notifications: [SimNotification]) {
        let terms = try Self.extensionTerms(body)
        let decided: Result<ExtensionDecision, APIError> = box.withLockedValue { state in
            let owner = state.customers.first { customer in
                customer.environment == environment && customer.bundleID == bundleID && customer.hasSubscription(originalTransactionID)
            }
            guard let customer = owner else { return .failure(.originalTransactionNotFound) }
            guard let signer = try? state.signer() else { return .failure(.internalError(status: 500)) }
            if state.api.extensions.contains(where: {
                $0.requestIdentifier == terms.requestIdentifier && $0.originalTransactionID == originalTransactionID
            }) {
                return .success(ExtensionDecision(customer: customer, granted: false, signer: signer))
            }
            switch Result(catching: { () throws(APIError) in
                try Self.grant(customer, originalTransactionID, terms, state.api.extensions, now: now)
            }) {
            case .success(let grant): state.api.extensions.append(grant)
            case .failure(let refusal): return .failure(refusal)
            }
            return .success(ExtensionDecision(customer: customer, granted: true, signer: signer))
        }
        let outcome = try decided.get()
        let extended = apiState(outcome.customer, at: now)
        guard let subscription = extended.subscriptions.first(where: { $0.originalTransactionID == originalTransactionID }) else {
            throw .internalError(status: 500)
        }
        let answer = JSONValue.object([
            ("originalTransactionId", .string(originalTransactionID)),
            ("webOrderLineItemId", .string(subscription.latest.webOrderLineItemID)),
            ("success", .bool(true)),
            ("effectiveDate", SignedTransactionRenderer.millis(subscription.latest.expiresDate)),
        ])
        guard outcome.granted else { return (answer, []) }
        let notification = try renewalExtended(
            outcome.customer, subscription, state: extended, requestIdentifier: terms.requestIdentifier, signer: outcome.signer, now: now)
        return (answer, [notification])
    }

    /// Extend Subscription Renewal Dates for All Active Subscribers: every customer of the app
    /// in `environment` whose subscription to `productId` is active now (in the storefronts
    /// named; each simulated customer shops in its spec's storefront) is extended when Apple would allow it,
    /// and counted failed otherwise. Answers `{"requestIdentifier"}`; returns the
    /// `RENEWAL_EXTENDED`s to send now and the `SUMMARY` to send when the request completes.
    func apiMassExtend(
        body: [UInt8], environment: SimEnvironment, bundleID: String, now: Date
    ) throws(APIError) -> (answer: JSONValue, notifications: [SimNotification], summary: SimNotification?, completeAt: Date) {
        let terms = try Self.extensionTerms(body)
        let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        guard let productID = object["productId"] as? String,
            configuration.catalog.products.contains(where: { $0.productID == productID && $0.bundleID == bundleID })
        else {
            throw .badRequest(4_000_023, "Invalid product id.")
        }
        let storefronts = object["storefrontCountryCodes"] as? [String]
        if object["storefrontCountryCodes"] != nil, storefronts == nil || storefronts?.isEmpty == true {
            throw .badRequest(4_000_027, "Invalid storefront country codes.")
        }
        let answer = JSONValue.object([("requestIdentifier", .string(terms.requestIdentifier))])
        let (extended, request, signer): ([(SimCustomer, String)], SimMassExtension?, JWSSigner)
        do {
            (extended, request, signer) = try box.withLockedValue { state in
                let signer = try state.signer()
                if state.api.massExtensions[terms.requestIdentifier] != nil { return ([], nil, signer) }
                var extended: [(SimCustomer, String)] = []
                var failed = 0
                for customer in state.customers where customer.environment == environment && customer.bundleID == bundleID {
                    guard storefronts?.contains(customer.spec.storefront) ?? true else { continue }
                    let current = Self.extendedState(customer, state.api.extensions, at: now)
                    for subscription in current.subscriptions
                    where subscription.latest.productID == productID && subscription.status(at: now) == .active {
                        do {
                            state.api.extensions.append(
                                try Self.grant(customer, subscription.originalTransactionID, terms, state.api.extensions, now: now))
                            extended.append((customer, subscription.originalTransactionID))
                        } catch {
                            failed += 1
                        }
                    }
                }
                let request = SimMassExtension(
                    bundleID: bundleID, environment: environment, productID: productID,
                    completeAt: now.addingTimeInterval(state.api.massExtensionDuration), succeededCount: extended.count, failedCount: failed
                )
                state.api.massExtensions[terms.requestIdentifier] = request
                return (extended, request, signer)
            }
        } catch {
            throw .internalError(status: 500)
        }
        guard let request else { return (answer, [], nil, now) }
        var notifications: [SimNotification] = []
        for (customer, originalTransactionID) in extended {
            let state = apiState(customer, at: now)
            guard let subscription = state.subscriptions.first(where: { $0.originalTransactionID == originalTransactionID }) else {
                continue
            }
            notifications.append(
                try renewalExtended(
                    customer, subscription, state: state, requestIdentifier: terms.requestIdentifier, signer: signer, now: now))
        }
        let summary = try extensionSummary(request, terms.requestIdentifier, storefronts: storefronts, signer: signer)
        return (answer, notifications, summary, request.completeAt)
    }

    /// Get Status of Subscription Renewal Date Extensions.
    func apiMassExtensionStatus(
        productID: String, requestIdentifier: String, environment: SimEnvironment, bundleID: String, now: Date
    ) throws(APIError) -> JSONValue {
        let identifier = requestIdentifier.lowercased()
        guard
            let request = box.withLockedValue({ $0.api.massExtensions[identifier] }),
            request.bundleID == bundleID, request.environment == environment, request.productID == productID
        else {
            throw APIError(status: 404, code: 4_040_000, message: "Request not found.")
        }
        var members: [(String, JSONValue)] = [("requestIdentifier", .string(identifier)), ("complete", .bool(now >= request.completeAt))]
        if now >= request.completeAt {
            members += [
                ("completeDate", SignedTransactionRenderer.millis(request.completeAt)),
                ("succeededCount", .int(request.succeededCount)), ("failedCount", .int(request.failedCount)),
            ]
        }
        return .object(members)
    }

    /// The extension of `customer`'s subscription `originalTransactionID` Apple would grant
    /// now: a paid, active period, fewer than two extensions in the past year.
    private static func grant(
        _ customer: SimCustomer, _ originalTransactionID: String, _ terms: ExtensionTerms, _ granted: [SimExtension], now: Date
    ) throws(APIError) -> SimExtension {
        let state = extendedState(customer, granted, at: now)
        guard let subscription = state.subscriptions.first(where: { $0.originalTransactionID == originalTransactionID }) else {
            throw .originalTransactionNotFound
        }
        let latest = subscription.latest
        guard subscription.status(at: now) == .active, !latest.isTrialPeriod, !latest.isRefunded, !latest.isFamilyShared else {
            throw .extensionIneligible
        }
        let lastYear = now.addingTimeInterval(-365 * 86_400)
        guard granted.filter({ $0.originalTransactionID == originalTransactionID && $0.date > lastYear }).count < 2 else {
            throw .maximumExtensions
        }
        return SimExtension(
            requestIdentifier: terms.requestIdentifier, customerID: customer.id, originalTransactionID: originalTransactionID,
            transactionID: latest.transactionID, days: terms.days, date: now)
    }

    /// Whose subscription a request extends, and whether this request granted it (not a repeat).
    private struct ExtensionDecision {
        var customer: SimCustomer
        var granted: Bool
        var signer: JWSSigner
    }

    private struct ExtensionTerms {
        var days: Int
        var requestIdentifier: String
    }

    /// `extendByDays` 1–90, `extendReasonCode` 0–3 and a UUID `requestIdentifier`, or Apple's 400s.
    private static func extensionTerms(_ body: [UInt8]) throws(APIError) -> ExtensionTerms {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            throw .badRequest(4_000_000, "Invalid request.")
        }
        guard let days = object["extendByDays"] as? Int, (1...90).contains(days) else {
            throw .badRequest(4_000_009, "Invalid extend by days value.")
        }
        guard let reason = object["extendReasonCode"] as? Int, (0...3).contains(reason) else {
            throw .badRequest(4_000_010, "Invalid extend reason code.")
        }
        guard let identifier = object["requestIdentifier"] as? String, let uuid = UUID(uuidString: identifier) else {
            throw .badRequest(4_000_011, "Invalid request identifier.")
        }
        return ExtensionTerms(days: days, requestIdentifier: uuid.uuidString.lowercased())
    }

    /// `RENEWAL_EXTENDED` for `subscription` of `customer`, as extended in `state`.
    private func renewalExtended(
        _ customer: SimCustomer, _ subscription: SimSubscription, state: CustomerState, requestIdentifier: String, signer: JWSSigner,
        now: Date
    ) throws(APIError) -> SimNotification {
        let type = NotificationTypeV2("RENEWAL_EXTENDED")
        let uuid = NotificationRendererV2.uuid(
            seed: configuration.seed, customer: "extension|\(requestIdentifier)|\(subscription.originalTransactionID)", sequence: 0)
        let event = LifecycleEvent(date: now, change: .renewalExtended, groupID: subscription.groupID, purchaseID: nil, state: state)
        do {
            let body = try NotificationRendererV2.body(
                event, type: type, uuid: uuid, context: try apiContext(customer, now: now), signer: signer)
            return SimNotification(
                customerID: customer.id, sequence: customer.notifications.count, version: .v2, type: nil, typeV2: type,
                notificationUUID: uuid, environment: customer.environment, date: now, body: body)
        } catch {
            throw .internalError(status: 500)
        }
    }

    /// `RENEWAL_EXTENSION` / `SUMMARY` of a mass request, dated when it completes.
    private func extensionSummary(
        _ request: SimMassExtension, _ requestIdentifier: String, storefronts: [String]?, signer: JWSSigner
    ) throws(APIError) -> SimNotification {
        guard let app = configuration.app(request.bundleID) else { throw .internalError(status: 500) }
        let type = NotificationTypeV2("RENEWAL_EXTENSION", "SUMMARY")
        let uuid = NotificationRendererV2.uuid(seed: configuration.seed, customer: "extension-summary|\(requestIdentifier)", sequence: 0)
        var summary: [(String, JSONValue)] = [
            ("requestIdentifier", .string(requestIdentifier)), ("environment", .string(request.environment.rawValue)),
            ("appAppleId", .int(app.appAppleID)), ("bundleId", .string(app.bundleID)), ("productId", .string(request.productID)),
        ]
        if let storefronts { summary.append(("storefrontCountryCodes", .array(storefronts.map { .string($0) }))) }
        summary += [("failedCount", .int(request.failedCount)), ("succeededCount", .int(request.succeededCount))]
        do {
            let body = try NotificationRendererV2.summary(
                uuid: uuid, summary: summary, type: type, signedDate: request.completeAt, signer: signer)
            return SimNotification(
                customerID: "", sequence: 0, version: .v2, type: nil, typeV2: type, notificationUUID: uuid,
                environment: request.environment, date: request.completeAt, body: body)
        } catch {
            throw .internalError(status: 500)
        }
    }
}

extension SimCustomer {
    /// Whether `originalTransactionID` is one of the customer's subscriptions at any point of their life.
    func hasSubscription(_ originalTransactionID: String) -> Bool {
        let subscriptions = events.last?.state.subscriptions ?? []
        return subscriptions.contains { $0.originalTransactionID == originalTransactionID }
    }
}
