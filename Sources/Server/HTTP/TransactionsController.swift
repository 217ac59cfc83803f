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
    let lookup: TransactionLookup
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

    /// Looks a transaction id up; the body's `bundle_id`, else the only app with an API key.
    private func lookUp(_ transactionID: String, bundleID: String?, appUserID: String, request: Request, context: Context) async throws -> Response {
        let bundleID = try bundleID ?? { () throws(APIError) -> String in
            guard lookup.api.bundleIDs.count == 1, let only = lookup.api.bundleIDs.first else {
                throw APIError.malformed("bundle_id is required when not exactly one app has an App Store Server API key")
            }
            return only
        }()
        guard lookup.canLookUp(bundleID: bundleID) else {
            throw APIError.malformed("\(bundleID) has no App Store Server API key (APPSTORE_ISSUER_ID, APPSTORE_KEY_ID, APPSTORE_PRIVATE_KEY_FILE): send signed_transaction instead")
        }
        return try await lookup.resolve(transactionID, bundleID: bundleID, appUserID: appUserID, request: request, context: context)
    }

    private func verified(_ jws: String, logger: Logger) async throws(APIError) -> JWSTransactionPayload {
        do {
            return try await signatures.verifyTransaction(jws)
        } catch where error.kind == .malformed {
            throw APIError.malformed("signed_transaction is not a signed App Store transaction (\(error.reason))")
        } catch where error.kind == .unavailable {
            logger.warning("signed transaction not checkable now", metadata: [LogKey.error: "\(error.reason)"])
            throw APIError.unavailable("the signed transaction cannot be checked now (an OCSP responder did not answer); try again")
        } catch {
            logger.info("signed transaction rejected", metadata: [LogKey.error: "\(error.reason)"])
            throw APIError.signatureRejected("the signed transaction does not verify")
        }
    }
}
