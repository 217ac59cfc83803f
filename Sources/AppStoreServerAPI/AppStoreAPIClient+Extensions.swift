import AppStore
import Foundation
import HTTPClient
import Logging

/// Renewal-date extensions: one subscription, or every active subscriber of a product.
extension AppStoreAPIClient {
    /// Extend a Subscription Renewal Date for `originalTransactionID`, in `environment` or else
    /// production then sandbox. Sending the same `terms` (same `requestIdentifier`) again does
    /// not extend twice. Apple's refusals (403 `SubscriptionExtensionIneligible` for a
    /// subscription not in a paid active period, `SubscriptionMaxExtension` after two extensions
    /// in a year) are `.rejected` with Apple's `errorCode`.
    public func extendRenewalDate(
        originalTransactionID: String, terms: RenewalExtensionTerms, environment: AppStoreEnvironment? = nil, logger: Logger? = nil
    ) async throws -> RenewalExtensionAnswer {
        let body = AppStoreAPIWire.ExtendRequest(
            extendByDays: terms.days, extendReasonCode: terms.reasonCode, requestIdentifier: terms.requestIdentifier.uuidString.lowercased()
        )
        let call = AppStoreAPICall(
            method: .put, path: "/inApps/v1/subscriptions/extend/" + (try Self.pathID(originalTransactionID)),
            route: "/inApps/v1/subscriptions/extend/{originalTransactionId}", body: try Self.encoded(body))
        return try await perform(call, in: Self.lookupOrder(environment), logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(AppStoreAPIWire.ExtendResponse.self, body, in: environment)
            guard let success = wire.success else { throw .malformedAnswer(environment: environment) }
            return RenewalExtensionAnswer(
                environment: environment, succeeded: success, effectiveDate: wire.effectiveDate.flatMap(Date.init(appleMilliseconds:)),
                webOrderLineItemID: wire.webOrderLineItemId)
        }
    }

    /// Extend Subscription Renewal Dates for All Active Subscribers of `productID` in
    /// `environment` (only those of `storefronts`, alpha-3 codes, when given). Apple answers
    /// at once and works through the subscribers later: ask `massExtensionStatus` until it is
    /// complete. Sending the same `terms` again starts nothing new.
    public func extendRenewalDatesForAllActiveSubscribers(
        productID: String, storefronts: [String]?, terms: RenewalExtensionTerms, environment: AppStoreEnvironment, logger: Logger? = nil
    ) async throws {
        guard !productID.isEmpty, productID.count <= 256 else {
            throw AppStoreAPIError.invalidRequest(reason: "a product id has 1 to 256 characters")
        }
        let identifier = terms.requestIdentifier.uuidString.lowercased()
        let body = AppStoreAPIWire.MassExtendRequest(
            extendByDays: terms.days, extendReasonCode: terms.reasonCode, requestIdentifier: identifier, productId: productID,
            storefrontCountryCodes: storefronts)
        let call = AppStoreAPICall(
            method: .post, path: "/inApps/v1/subscriptions/extend/mass", route: "/inApps/v1/subscriptions/extend/mass",
            body: try Self.encoded(body))
        try await perform(call, in: [environment], logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(AppStoreAPIWire.MassExtendResponse.self, body, in: environment)
            guard wire.requestIdentifier?.lowercased() == identifier else { throw .malformedAnswer(environment: environment) }
        }
    }

    /// Get Status of Subscription Renewal Date Extensions for the mass request `requestIdentifier`.
    public func massExtensionStatus(
        productID: String, requestIdentifier: UUID, environment: AppStoreEnvironment, logger: Logger? = nil
    ) async throws -> MassExtensionStatus {
        let identifier = requestIdentifier.uuidString.lowercased()
        let call = AppStoreAPICall(
            method: .get, path: "/inApps/v1/subscriptions/extend/mass/" + (try Self.pathID(productID)) + "/" + identifier,
            route: "/inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}")
        return try await perform(call, in: [environment], logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(AppStoreAPIWire.MassExtendStatusResponse.self, body, in: environment)
            guard wire.requestIdentifier?.lowercased() == identifier, let complete = wire.complete else {
                throw .malformedAnswer(environment: environment)
            }
            return MassExtensionStatus(
                complete: complete, completeDate: wire.completeDate.flatMap(Date.init(appleMilliseconds:)),
                succeededCount: wire.succeededCount, failedCount: wire.failedCount)
        }
    }

    /// `body` as JSON for a request.
    static func encoded(_ body: some Encodable) throws(AppStoreAPIError) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(body))
        } catch {
            throw .invalidRequest(reason: "the request body could not be written")
        }
    }
}
