import AppStore
import AppStoreSignature
import Foundation
import Hummingbird
import Logging
import Postgres
import Store
import SubscriptiondCore
import Subscriptions

/// `POST /v1/transactions`: the v2 twin of `/v1/receipts`. The app's backend sends a
/// StoreKit 2 signed transaction from the device — verified offline (signature chain to a
/// configured root, bundle id) — or a transaction id, looked up with the App Store Server
/// API; the facts are applied and the user linked.
struct TransactionsController<Context: RequestContext> {
    let database: PostgresClient
    let reader: SubscriptionReader
    let signatures: SignedPayloadVerifier
    let apps: AppRegistry
    let api: AppStoreAPIDirectory
    let inbox: NotificationInbox
    let workerSignal: WorkerSignal
    /// How long a lookup waits for Apple before it is queued (202).
    let lookupWait: Duration
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<Context>) {
        group.post("transactions") { request, context in
            try await post(request, context: context)
        }
    }

    private func post(_ request: Request, context: Context) async throws -> Response {
        let body = try await QueryRequest.object(request, maxBytes: maxBodyBytes)
        let appUserID = try QueryRequest.string(body, "app_user_id")
        let signed = try QueryRequest.optionalString(body, "signed_transaction", maxLength: maxBodyBytes)
        let transactionID = try QueryRequest.optionalString(body, "transaction_id", maxLength: 64)
        switch (signed, transactionID) {
        case (let signed?, nil):
            return try await apply(signed: signed, appUserID: appUserID, context: context).response(from: request, context: context)
        case (nil, let transactionID?):
            return try await lookUp(transactionID, bundleID: try QueryRequest.optionalString(body, "bundle_id"), appUserID: appUserID,
                                    request: request, context: context)
        default:
            throw APIError.malformed("give exactly one of signed_transaction and transaction_id")
        }
    }

    private func apply(signed: String, appUserID: String, context: Context) async throws -> JSONResponse<SubscriberDocument> {
        let transaction = try await verified(signed, logger: context.logger)
        guard let bundleID = transaction.bundleID, let app = apps.app(bundleID: bundleID) else {
            throw APIError.signatureRejected("the signed transaction is not for a configured app")
        }
        let environment: AppStoreEnvironment
        do {
            try AppIdentityCheck.check(transaction, bundleID: app.bundleID, environment: nil)
            environment = transaction.environment ?? .production
        } catch {
            throw APIError.signatureRejected("the signed transaction is not for a configured app")
        }
        let facts = ReceiptFacts(signedTransaction: transaction, renewalInfo: nil, bundleID: app.bundleID, environment: environment)
        try await database.withTransaction { session in
            try FactStore.apply(facts, receiptObservedAt: transaction.signedDate ?? .now, notificationID: nil, appUserID: appUserID, in: session)
        }
        let views = try await reader.subscriber(appUserID: appUserID) ?? []
        return JSONResponse(document: SubscriberDocument(appUserID: appUserID, views: views))
    }

    /// Looks a transaction id up (production, then sandbox) and applies what Apple says about
    /// its subscription; `202 pending` (queued) when Apple does not answer in time.
    private func lookUp(_ transactionID: String, bundleID: String?, appUserID: String, request: Request, context: Context) async throws -> Response {
        let bundleID = try bundleID ?? { () throws(APIError) -> String in
            guard api.bundleIDs.count == 1, let only = api.bundleIDs.first else {
                throw APIError.malformed("bundle_id is required when not exactly one app has an App Store Server API key")
            }
            return only
        }()
        guard let client = api.client(bundleID: bundleID) else {
            throw APIError.malformed("\(bundleID) has no App Store Server API key (APPSTORE_ISSUER_ID, APPSTORE_KEY_ID, APPSTORE_PRIVATE_KEY_FILE): send signed_transaction instead")
        }
        let logger = context.logger
        let outcome = await firstResult(within: lookupWait) { () -> Result<[ReceiptFacts], AppStoreAPIError> in
            do {
                return .success(try await AppleSubscriptionState.facts(transactionID: transactionID, environment: nil, withHistory: false, client: client, logger: logger))
            } catch let error as AppStoreAPIError {
                return .failure(error)
            } catch {
                return .failure(.unavailable(environment: .production, reason: "\(error)"))
            }
        }
        switch outcome {
        case .success(let facts)?:
            try await database.withTransaction { session in
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

    private func verified(_ jws: String, logger: Logger) async throws(APIError) -> JWSTransactionPayload {
        do {
            return try await signatures.verifyTransaction(jws)
        } catch where error.kind == .malformed {
            throw APIError.malformed("signed_transaction is not a signed App Store transaction (\(error.reason))")
        } catch {
            logger.info("signed transaction rejected", metadata: [LogKey.error: "\(error.reason)"])
            throw APIError.signatureRejected("the signed transaction does not verify")
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
