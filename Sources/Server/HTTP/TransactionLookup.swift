import AppStore
import Foundation
import Hummingbird
import Logging
import Postgres
import Store
import SubscriptiondCore
import Subscriptions

/// Looks a transaction id up with the App Store Server API (production, then sandbox) for a
/// user, applies what Apple says about its subscriptions and links the user; queues the
/// lookup in the inbox (`202 pending`, finished by the worker) when Apple does not answer in
/// time. Shared by `POST /v1/transactions` and by `POST /v1/receipts` for apps without a
/// shared secret, whose receipts only give a transaction id to look up.
struct TransactionLookup: Sendable {
    let database: PostgresClient
    let reader: SubscriptionReader
    let api: AppStoreAPIDirectory
    let inbox: NotificationInbox
    let workerSignal: WorkerSignal
    /// How long a lookup waits for Apple before it is queued (202).
    let wait: Duration

    /// Whether `bundleID` has an App Store Server API key to look anything up with.
    func canLookUp(bundleID: String) -> Bool {
        api.client(bundleID: bundleID) != nil
    }

    /// What Apple says now about the subscriptions `transactionID` belongs to (and, with
    /// `withHistory`, every transaction of that customer), or nil when it did not answer
    /// within `wait`.
    func facts(_ transactionID: String, bundleID: String, withHistory: Bool, logger: Logger) async throws -> Result<[ReceiptFacts], AppStoreAPIError>? {
        guard let client = api.client(bundleID: bundleID) else {
            throw APIError.malformed("\(bundleID) has no App Store Server API key (APPSTORE_ISSUER_ID, APPSTORE_KEY_ID, APPSTORE_PRIVATE_KEY_FILE)")
        }
        return await firstResult(within: wait) { () -> Result<[ReceiptFacts], AppStoreAPIError> in
            do {
                return .success(try await AppleSubscriptionState.facts(
                    transactionID: transactionID, environment: nil, withHistory: withHistory, client: client, logger: logger))
            } catch let error as AppStoreAPIError {
                return .failure(error)
            } catch {
                return .failure(.unavailable(environment: .production, reason: "\(error)"))
            }
        }
    }

    /// The subscriber document after the lookup, or `202 pending`.
    func resolve(_ transactionID: String, bundleID: String, appUserID: String, request: Request, context: some RequestContext) async throws -> Response {
        let logger = context.logger
        switch try await facts(transactionID, bundleID: bundleID, withHistory: false, logger: logger) {
        case .success(let facts)?:
            try await database.withTransaction { session in
                try FactStore.lockSubscriptions(of: facts, in: session)
                for batch in facts {
                    try FactStore.apply(batch, receiptObservedAt: Date(), notificationID: nil, appUserID: appUserID, in: session)
                }
            }
            let views = try await reader.subscriber(appUserID: appUserID) ?? []
            return try JSONResponse(document: SubscriberDocument(appUserID: appUserID, views: views)).response(from: request, context: context)
        case .failure(.notFound)?:
            throw APIError.signatureRejected("the App Store does not know transaction \(transactionID) in either environment")
        case .failure(let error)? where !error.isRetryable:
            throw APIError.signatureRejected("the App Store Server API refused the lookup: \(error)")
        case .failure, nil:
            let entry = try QueuedLookup.entry(transactionID: transactionID, bundleID: bundleID, appUserID: appUserID)
            let stored = try await inbox.insert(entry)
            await workerSignal.signal()
            logger.info("transaction lookup queued: the App Store Server API is unavailable", metadata: [LogKey.notificationID: "\(stored)"])
            return try JSONResponse(status: .accepted, document: ["status": "pending"]).response(from: request, context: context)
        }
    }
}

/// The inbox entry of a transaction lookup the API could not answer in time.
enum QueuedLookup {
    static func entry(transactionID: String, bundleID: String, appUserID: String) throws -> InboxEntry {
        let body = CanonicalJSONWriter.string(.object([
            "app_user_id": .string(appUserID), "bundle_id": .string(bundleID), "transaction_id": .string(transactionID),
        ]))
        return InboxEntry(
            source: .transaction, dedupeKey: "transaction:" + ContentHash.sha256Hex(Data(body.utf8)), notificationType: nil,
            // Unknown until Apple answers; the lookup tries production first.
            environment: .production, bundleID: bundleID, originalTransactionID: nil, appUserID: appUserID, body: body)
    }
}
