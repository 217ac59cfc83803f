import AppStore
import AppStoreSignature
import Foundation
import HTTPClient
import Logging

extension AppStoreAPIClient {
    /// Get All Subscription Statuses for any transaction id of a customer's subscription.
    ///
    /// `environment` `nil` asks production, then sandbox on `TransactionIdNotFound`.
    /// Throws `AppStoreAPIError` or `CancellationError`.
    public func subscriptionStatuses(
        transactionID: String, environment: AppStoreEnvironment? = nil, logger: Logger? = nil
    ) async throws -> SubscriptionStatusesAnswer {
        let call = AppStoreAPICall(
            method: .get, path: "/inApps/v1/subscriptions/" + (try Self.pathID(transactionID)),
            route: "/inApps/v1/subscriptions/{transactionId}")
        return try await perform(call, in: Self.lookupOrder(environment), logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(AppStoreAPIWire.StatusResponse.self, body, in: environment)
            var groups: [SubscriptionGroupStatus] = []
            for group in wire.data ?? [] {
                var last: [SubscriptionLastTransaction] = []
                for item in group.lastTransactions ?? [] {
                    let transaction = try await verifiedTransaction(item.signedTransactionInfo, in: environment)
                    var renewal: JWSRenewalInfoPayload?
                    if let jws = item.signedRenewalInfo {
                        renewal = try await verifiedRenewalInfo(jws, in: environment)
                    }
                    guard let original = item.originalTransactionId ?? transaction.originalTransactionID else {
                        throw .malformedAnswer(environment: environment)
                    }
                    last.append(
                        SubscriptionLastTransaction(
                            originalTransactionID: original, statusRaw: item.status, transaction: transaction, renewalInfo: renewal))
                }
                groups.append(
                    SubscriptionGroupStatus(subscriptionGroupIdentifier: group.subscriptionGroupIdentifier, lastTransactions: last))
            }
            return SubscriptionStatusesAnswer(environment: environment, groups: groups)
        }
    }

    /// One page of Get Transaction History v2; pass the previous page's `revision` for the next.
    public func transactionHistoryPage(
        transactionID: String, revision: String? = nil, environment: AppStoreEnvironment? = nil, logger: Logger? = nil
    ) async throws -> TransactionHistoryPage {
        try await revisionPage(
            AppStoreAPICall(
                method: .get, path: "/inApps/v2/history/" + (try Self.pathID(transactionID)), route: "/inApps/v2/history/{transactionId}"),
            revision: revision, environment: environment, logger: logger)
    }

    /// Every page of Get Transaction History v2, pinned to the environment the first page found.
    ///
    /// Refuses (`.malformedAnswer`) an answer that says `hasMore` without a new revision, or
    /// more than `maximumPages` pages, so a confused upstream cannot loop it forever.
    public func transactionHistory(
        transactionID: String, environment: AppStoreEnvironment? = nil, maximumPages: Int = 10_000, logger: Logger? = nil
    ) async throws -> (environment: AppStoreEnvironment, transactions: [JWSTransactionPayload]) {
        try await allPages(maximumPages: maximumPages) { revision, pinned in
            try await transactionHistoryPage(
                transactionID: transactionID, revision: revision, environment: pinned ?? environment, logger: logger)
        }
    }

    /// One page of Get Refund History v2 (the customer's refunded transactions, newest
    /// revision first); pass the previous page's `revision` for the next.
    public func refundHistoryPage(
        transactionID: String, revision: String? = nil, environment: AppStoreEnvironment? = nil, logger: Logger? = nil
    ) async throws -> TransactionHistoryPage {
        try await revisionPage(
            AppStoreAPICall(
                method: .get, path: "/inApps/v2/refund/lookup/" + (try Self.pathID(transactionID)),
                route: "/inApps/v2/refund/lookup/{transactionId}", rateClass: .customerLookup),
            revision: revision, environment: environment, logger: logger)
    }

    /// Every page of Get Refund History v2 for the customer owning `transactionID`, with the
    /// same guards as `transactionHistory`.
    public func refundHistory(
        transactionID: String, environment: AppStoreEnvironment? = nil, maximumPages: Int = 1_000, logger: Logger? = nil
    ) async throws -> (environment: AppStoreEnvironment, transactions: [JWSTransactionPayload]) {
        try await allPages(maximumPages: maximumPages) { revision, pinned in
            try await refundHistoryPage(
                transactionID: transactionID, revision: revision, environment: pinned ?? environment, logger: logger)
        }
    }

    /// Send Consumption Information (v2): the developer's word on a purchase whose refund the
    /// customer asked for, answering a CONSUMPTION_REQUEST within its 12 hours. Apple answers
    /// 202 with no body; asked only in `environment` (the request's own).
    public func sendConsumptionInformation(
        transactionID: String, body: [UInt8], environment: AppStoreEnvironment, logger: Logger? = nil
    ) async throws {
        let call = AppStoreAPICall(
            method: .put, path: "/inApps/v2/transactions/consumption/" + (try Self.pathID(transactionID)),
            route: "/inApps/v2/transactions/consumption/{transactionId}", body: body)
        try await perform(call, in: [environment], logger: logger) { _, _ throws(AppStoreAPIError) in () }
    }

    /// Set App Account Token (API 1.16): attaches `token` (a UUID, the app's user) to the
    /// purchase `originalTransactionID` made outside the app (an offer code, the App Store);
    /// its transactions carry it from then on. Apple answers 200 with no body; asked only in
    /// `environment`, the purchase's own.
    public func setAppAccountToken(
        originalTransactionID: String, token: String, environment: AppStoreEnvironment, logger: Logger? = nil
    ) async throws {
        let body = Array(#"{"appAccountToken":"\#(token.lowercased())"}"#.utf8)
        let call = AppStoreAPICall(
            method: .put, path: "/inApps/v1/transactions/" + (try Self.pathID(originalTransactionID)) + "/appAccountToken",
            route: "/inApps/v1/transactions/{originalTransactionId}/appAccountToken", body: body)
        try await perform(call, in: [environment], logger: logger) { _, _ throws(AppStoreAPIError) in () }
    }

    /// Finish Transaction (API 1.20): tells Apple this server delivered the purchase
    /// `transactionID` in `environment` (for apps that manage entitlement on the server rather
    /// than calling `finish()` in the app).
    public func finishTransaction(transactionID: String, environment: AppStoreEnvironment, logger: Logger? = nil) async throws {
        let call = AppStoreAPICall(
            method: .post, path: "/inApps/v1/transactions/" + (try Self.pathID(transactionID)) + "/finish",
            route: "/inApps/v1/transactions/{transactionId}/finish", body: [])
        try await perform(call, in: [environment], logger: logger) { _, _ throws(AppStoreAPIError) in () }
    }

    /// Look Up Order ID: the purchases of the order `orderID` (from Apple's email receipt),
    /// each verified. Production only: Apple offers no order lookup in the sandbox.
    public func lookUpOrder(_ orderID: String, logger: Logger? = nil) async throws -> OrderLookupAnswer {
        let call = AppStoreAPICall(
            method: .get, path: "/inApps/v1/lookup/" + (try Self.pathID(orderID)), route: "/inApps/v1/lookup/{orderId}",
            rateClass: .customerLookup)
        return try await perform(call, in: [.production], logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(AppStoreAPIWire.OrderLookupResponse.self, body, in: environment)
            switch wire.status {
            case 1?: return .invalid
            case 0?:
                var transactions: [JWSTransactionPayload] = []
                for jws in wire.signedTransactions ?? [] {
                    transactions.append(try await verifiedTransaction(jws, in: environment))
                }
                guard !transactions.isEmpty else { throw .malformedAnswer(environment: environment) }
                return .valid(transactions)
            default:
                throw .malformedAnswer(environment: environment)
            }
        }
    }

    /// One page of an endpoint answering `{revision, hasMore, signedTransactions}`.
    private func revisionPage(
        _ call: AppStoreAPICall, revision: String?, environment: AppStoreEnvironment?, logger: Logger?
    ) async throws -> TransactionHistoryPage {
        var call = call
        if let revision { call.query = [("revision", revision)] }
        return try await perform(call, in: Self.lookupOrder(environment), logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(AppStoreAPIWire.HistoryResponse.self, body, in: environment)
            var transactions: [JWSTransactionPayload] = []
            for jws in wire.signedTransactions ?? [] {
                transactions.append(try await verifiedTransaction(jws, in: environment))
            }
            return TransactionHistoryPage(
                environment: environment, transactions: transactions, revision: wire.revision, hasMore: wire.hasMore ?? false)
        }
    }

    /// Every page `page(revision, environment)` gives, the later ones pinned to the environment
    /// of the first; refuses `hasMore` without a new revision, and more than `maximumPages`.
    private func allPages(
        maximumPages: Int, _ page: (String?, AppStoreEnvironment?) async throws -> TransactionHistoryPage
    ) async throws -> (environment: AppStoreEnvironment, transactions: [JWSTransactionPayload]) {
        var current = try await page(nil, nil)
        var transactions = current.transactions
        var pages = 1
        while current.hasMore {
            guard let revision = current.revision, pages < maximumPages else {
                throw AppStoreAPIError.malformedAnswer(environment: current.environment)
            }
            let next = try await page(revision, current.environment)
            if next.hasMore, next.revision == revision {
                throw AppStoreAPIError.malformedAnswer(environment: current.environment)
            }
            transactions += next.transactions
            pages += 1
            current = next
        }
        return (current.environment, transactions)
    }

    /// Get Transaction Info; `environment` `nil` asks production, then sandbox.
    public func transactionInfo(
        transactionID: String, environment: AppStoreEnvironment? = nil, logger: Logger? = nil
    ) async throws -> TransactionInfoAnswer {
        let call = AppStoreAPICall(
            method: .get, path: "/inApps/v1/transactions/" + (try Self.pathID(transactionID)),
            route: "/inApps/v1/transactions/{transactionId}")
        return try await perform(call, in: Self.lookupOrder(environment), logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(AppStoreAPIWire.TransactionInfoResponse.self, body, in: environment)
            return TransactionInfoAnswer(
                environment: environment, transaction: try await verifiedTransaction(wire.signedTransactionInfo, in: environment))
        }
    }

    /// Get App Transaction Info: the customer's purchase of the app (its original application
    /// version), found by any of the customer's transaction ids; `environment` `nil` asks
    /// production, then sandbox.
    public func appTransactionInfo(
        transactionID: String, environment: AppStoreEnvironment? = nil, logger: Logger? = nil
    ) async throws -> AppTransactionInfoAnswer {
        let call = AppStoreAPICall(
            method: .get, path: "/inApps/v1/transactions/appTransactions/" + (try Self.pathID(transactionID)),
            route: "/inApps/v1/transactions/appTransactions/{transactionId}")
        return try await perform(call, in: Self.lookupOrder(environment), logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(AppStoreAPIWire.AppTransactionInfoResponse.self, body, in: environment)
            return AppTransactionInfoAnswer(
                environment: environment, appTransaction: try await verifiedAppTransaction(wire.signedAppTransactionInfo, in: environment))
        }
    }

    /// One page of Get Notification History in `environment`; pass the previous page's
    /// `paginationToken` for the next. Refuses a start more than 180 days back before sending.
    public func notificationHistoryPage(
        _ query: NotificationHistoryQuery, paginationToken: String? = nil, environment: AppStoreEnvironment, now: Date = Date(),
        logger: Logger? = nil
    ) async throws -> NotificationHistoryPage {
        var call = AppStoreAPICall(
            method: .post, path: "/inApps/v1/notifications/history", route: "/inApps/v1/notifications/history",
            body: try query.body(now: now))
        if let paginationToken { call.query = [("paginationToken", paginationToken)] }
        return try await perform(call, in: [environment], logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(AppStoreAPIWire.NotificationHistoryResponse.self, body, in: environment)
            var items: [NotificationHistoryItem] = []
            for item in wire.notificationHistory ?? [] {
                let notification = try await verifiedNotification(item.signedPayload, in: environment)
                items.append(
                    NotificationHistoryItem(
                        signedPayload: item.signedPayload ?? "", notification: notification,
                        sendAttempts: (item.sendAttempts ?? []).map(NotificationSendAttempt.init)))
            }
            return NotificationHistoryPage(notifications: items, paginationToken: wire.paginationToken, hasMore: wire.hasMore ?? false)
        }
    }

    /// Request a Test Notification in `environment`; returns `testNotificationToken`.
    public func requestTestNotification(environment: AppStoreEnvironment, logger: Logger? = nil) async throws -> String {
        let call = AppStoreAPICall(
            method: .post, path: "/inApps/v1/notifications/test", route: "/inApps/v1/notifications/test", rateClass: .testNotification)
        return try await perform(call, in: [environment], logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(AppStoreAPIWire.TestNotificationResponse.self, body, in: environment)
            guard let token = wire.testNotificationToken, !token.isEmpty else { throw .malformedAnswer(environment: environment) }
            return token
        }
    }

    /// Get Test Notification Status: the signed TEST notification and Apple's delivery attempts.
    public func testNotificationStatus(
        token: String, environment: AppStoreEnvironment, logger: Logger? = nil
    ) async throws -> TestNotificationStatus {
        let call = AppStoreAPICall(
            method: .get, path: "/inApps/v1/notifications/test/" + (try Self.pathID(token)), route: "/inApps/v1/notifications/test/{token}")
        return try await perform(call, in: [environment], logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(AppStoreAPIWire.NotificationHistoryItem.self, body, in: environment)
            let notification = try await verifiedNotification(wire.signedPayload, in: environment)
            return TestNotificationStatus(
                signedPayload: wire.signedPayload ?? "", notification: notification,
                sendAttempts: (wire.sendAttempts ?? []).map(NotificationSendAttempt.init))
        }
    }

    /// Production then sandbox, unless the caller knows the environment.
    static func lookupOrder(_ environment: AppStoreEnvironment?) -> [AppStoreEnvironment] {
        environment.map { [$0] } ?? [.production, .sandbox]
    }

    /// An id for a path segment: non-empty, at most 256 characters, percent-encoded.
    static func pathID(_ id: String) throws(AppStoreAPIError) -> String {
        guard !id.isEmpty, id.count <= 256 else {
            throw .invalidRequest(reason: "an id for the App Store Server API must have 1 to 256 characters")
        }
        return percentEncoded(id)
    }
}
