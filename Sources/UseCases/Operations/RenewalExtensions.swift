import AppStore
import AppStoreServerAPI
import Foundation
import Logging
import Settings
import Store

/// `subscriptionctl extend`: Apple's renewal-date extensions, for one subscription or every
/// active subscriber of a product. Each request is stored with its identifier before it is
/// sent, so a command stopped anywhere sends the same identifier again when run again (Apple
/// extends once per identifier), and a mass request is polled until Apple says it is done.
/// The RENEWAL_EXTENDED notifications Apple then sends are applied by the worker; one
/// subscription is also applied at once from what Apple says now.
public struct RenewalExtensions: Sendable {
    /// How a mass request is waited for.
    public struct Polling: Sendable {
        /// Between two status questions.
        public var interval: Duration
        /// How long to wait before giving up (the request stays open; run again to resume).
        public var limit: Duration

        public init(interval: Duration, limit: Duration) {
            self.interval = interval
            self.limit = limit
        }
    }

    private let store: RenewalExtensionStore
    private let api: AppStoreAPIDirectory?
    private let evidence: AppleEvidence
    private let applier: FactApplier

    /// Extends through `api`, records in `store`, and applies what `evidence` says after with `applier`.
    public init(store: RenewalExtensionStore, applier: FactApplier, api: AppStoreAPIDirectory?, evidence: AppleEvidence) {
        self.store = store
        self.api = api
        self.evidence = evidence
        self.applier = applier
    }

    /// Extends the subscription `originalTransactionID` of `bundleID` (nil: the only app with
    /// an API key) by `days`. Returns the stored request, `resumed` when an unfinished one (or
    /// the one named `requestIdentifier`) was picked up; a finished one is returned unsent.
    /// Throws `UseCaseError`: `malformed` for terms Apple would refuse, `signatureRejected`
    /// when Apple refuses the extension, `unavailable` when it cannot be asked now.
    public func extend(
        originalTransactionID: String, days: Int, reasonCode: Int, bundleID: String?, requestIdentifier: UUID?, logger: Logger
    ) async throws -> (request: RenewalExtension, resumed: Bool) {
        let (client, bundleID) = try client(bundleID)
        try Self.check(days: days, reasonCode: reasonCode)
        let (request, resumed) = try await store.open(
            bundleID: bundleID, environment: nil, target: .subscription(originalTransactionID: originalTransactionID), days: days,
            reasonCode: reasonCode, requestIdentifier: requestIdentifier)
        guard request.state == .pending else { return (request, resumed) }
        let answer = try await send(request) {
            try await client.extendRenewalDate(
                originalTransactionID: originalTransactionID, terms: try Self.terms(request), logger: logger)
        }
        guard answer.succeeded else {
            try await store.recordFailure(request.requestIdentifier, reason: "Apple did not extend the subscription", permanent: true)
            throw UseCaseError.signatureRejected("Apple did not extend subscription \(originalTransactionID)")
        }
        try await store.markComplete(
            request.requestIdentifier, environment: answer.environment, effectiveDate: answer.effectiveDate, succeededCount: nil,
            failedCount: nil)
        // Apply what Apple says now, so the new expiry shows before RENEWAL_EXTENDED arrives.
        let now = await evidence.lookUp(
            transactionID: originalTransactionID, bundleID: bundleID, environment: answer.environment, withHistory: false, logger: logger)
        if case .facts(let batches) = now {
            try await applier.apply(batches)
        } else {
            logger.warning("extended; the subscription is updated when Apple's RENEWAL_EXTENDED arrives")
        }
        return (try await stored(request.requestIdentifier), resumed)
    }

    /// Extends every active subscriber of `productID` in `environment` (only `storefronts`,
    /// when given) and waits for Apple to finish, calling `progress` after each status that
    /// is not final. Returns the stored request, complete; throws `UseCaseError.unavailable`
    /// when Apple has not finished within `polling.limit` (the request stays open and the
    /// same command resumes it).
    public func extendAll(
        productID: String, storefronts: [String]?, environment: AppStoreEnvironment, days: Int, reasonCode: Int, bundleID: String?,
        requestIdentifier: UUID?, polling: Polling, logger: Logger, progress: (RenewalExtension, MassExtensionStatus?) -> Void
    ) async throws -> (request: RenewalExtension, resumed: Bool) {
        let (client, bundleID) = try client(bundleID)
        try Self.check(days: days, reasonCode: reasonCode)
        var (request, resumed) = try await store.open(
            bundleID: bundleID, environment: environment, target: .product(productID: productID, storefronts: storefronts), days: days,
            reasonCode: reasonCode, requestIdentifier: requestIdentifier)
        if request.state == .pending {
            try await send(request) {
                try await client.extendRenewalDatesForAllActiveSubscribers(
                    productID: productID, storefronts: storefronts, terms: try Self.terms(request), environment: environment, logger: logger
                )
            }
            try await store.markAccepted(request.requestIdentifier)
            request = try await stored(request.requestIdentifier)
        }
        let deadline = ContinuousClock.now + polling.limit
        while request.state == .accepted {
            progress(request, nil)
            let status: MassExtensionStatus
            do {
                status = try await client.massExtensionStatus(
                    productID: productID, requestIdentifier: request.requestIdentifier, environment: environment, logger: logger)
            } catch let error as AppStoreAPIError where error.isRetryable {
                try await store.recordFailure(request.requestIdentifier, reason: error.description, permanent: false)
                try await pause(polling, until: deadline, request)
                continue
            } catch let error as AppStoreAPIError {
                throw UseCaseError.signatureRejected("Apple refused the status of request \(request.requestIdentifier): \(error)")
            }
            if status.complete {
                try await store.markComplete(
                    request.requestIdentifier, environment: environment, effectiveDate: nil, succeededCount: status.succeededCount,
                    failedCount: status.failedCount)
            } else {
                progress(request, status)
                try await pause(polling, until: deadline, request)
            }
            request = try await stored(request.requestIdentifier)
        }
        return (request, resumed)
    }

    /// The client of `bundleID`, or of the only app with a key.
    private func client(_ bundleID: String?) throws(UseCaseError) -> (AppStoreAPIClient, String) {
        let bundleID = try evidence.appWithAPIKey(bundleID)
        guard let client = api?.client(bundleID: bundleID) else { throw .notConfigured("\(bundleID) has no App Store Server API key") }
        return (client, bundleID)
    }

    /// Sends `request` with `call`, recording a failure: Apple's refusal for good, or a try
    /// that can be made again by running the same command.
    @discardableResult
    private func send<Answer>(_ request: RenewalExtension, _ call: () async throws -> Answer) async throws -> Answer {
        do {
            return try await call()
        } catch let error as AppStoreAPIError {
            let permanent = !error.isRetryable
            try await store.recordFailure(request.requestIdentifier, reason: error.description, permanent: permanent)
            if error == .notFound { throw UseCaseError.notFound("Apple knows no such subscription for \(request.bundleID)") }
            if permanent { throw UseCaseError.signatureRejected("Apple refused the extension: \(Self.explained(error))") }
            throw UseCaseError.unavailable(
                "\(error); request \(request.requestIdentifier.uuidString.lowercased()) is kept: run the same command again to send it again"
            )
        }
    }

    /// Waits one interval, or refuses when that passes `deadline`.
    private func pause(_ polling: Polling, until deadline: ContinuousClock.Instant, _ request: RenewalExtension) async throws {
        guard ContinuousClock.now + polling.interval <= deadline else {
            throw UseCaseError.unavailable(
                "Apple has not finished request \(request.requestIdentifier.uuidString.lowercased()) yet; "
                    + "run the same command again to keep waiting")
        }
        try await Task.sleep(for: polling.interval)
    }

    private func stored(_ identifier: UUID) async throws -> RenewalExtension {
        guard let request = try await store.request(identifier) else { throw StoreError("renewal extension \(identifier) vanished") }
        return request
    }

    private static func check(days: Int, reasonCode: Int) throws(UseCaseError) {
        do {
            _ = try RenewalExtensionTerms(days: days, reasonCode: reasonCode, requestIdentifier: UUID())
        } catch {
            throw .malformed(error.description)
        }
    }

    private static func terms(_ request: RenewalExtension) throws -> RenewalExtensionTerms {
        try RenewalExtensionTerms(days: request.days, reasonCode: request.reasonCode, requestIdentifier: request.requestIdentifier)
    }

    /// Apple's extension refusals in words.
    private static func explained(_ error: AppStoreAPIError) -> String {
        guard case .rejected(_, _, let code?) = error else { return error.description }
        switch code {
        case 4_030_004: return "the subscription is not in a paid, active period (errorCode 4030004)"
        case 4_030_005: return "the subscription was already extended twice in the past year (errorCode 4030005)"
        case 4_030_007: return "a family-shared subscription cannot be extended (errorCode 4030007)"
        default: return error.description
        }
    }
}
