import Foundation
import Hummingbird
import Logging
import Postgres
import Store
import SubscriptiondCore
import Subscriptions

/// `POST /v1/receipts`: the app's backend sends a device's receipt for a user.
///
/// An app with a shared secret has it verified with `verifyReceipt`. An app with an App
/// Store Server API key but no shared secret (moved off `verifyReceipt`) has a transaction id
/// read out of the receipt — untrusted, only as a lookup key — and resolved through the API,
/// so its existing client code keeps working. Either way, `202 pending` when Apple does not
/// answer in time (queued, finished by the worker).
struct ReceiptsController<Context: RequestContext> {
    let database: PostgresClient
    let reader: SubscriptionReader
    let verifier: ReceiptVerifier
    /// How long a request waits for Apple before the receipt is queued (202).
    let receiptWait: Duration
    let apps: AppRegistry
    let lookup: TransactionLookup
    let inbox: NotificationInbox
    let workerSignal: WorkerSignal
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<Context>) {
        group.post("receipts") { request, context in
            try await post(request, context: context)
        }
    }

    private func post(_ request: Request, context: Context) async throws -> Response {
        let body = try await QueryRequest.object(request, maxBytes: maxBodyBytes)
        let appUserID = try QueryRequest.string(body, "app_user_id")
        let submission = try ReceiptSubmission(
            receiptData: try QueryRequest.string(body, "receipt_data", maxLength: maxBodyBytes),
            bundleID: try QueryRequest.optionalString(body, "bundle_id"), apps: apps)
        if submission.isLookedUp(by: lookup) {
            return try await lookup.resolve(
                try submission.transactionIDToLookUp(), bundleID: submission.app.bundleID, appUserID: appUserID, request: request, context: context)
        }
        return try await verify(submission, appUserID: appUserID, request: request, context: context)
    }

    /// Verifies with `verifyReceipt` now and links the user; queues (202) when it is unavailable.
    private func verify(_ submission: ReceiptSubmission, appUserID: String, request: Request, context: Context) async throws -> Response {
        let (verifier, logger) = (self.verifier, context.logger)
        let outcome = await firstResult(within: receiptWait) {
            await verifier.verify(receiptData: submission.receiptData, app: submission.app, logger: logger)
        } ?? .retry(reason: "the App Store did not answer within \(receiptWait)", limited: false)
        switch outcome {
        case .verified(let response, let observedAt, let endpoint):
            var facts = ReceiptFacts(verifyResponse: response, bundleID: submission.app.bundleID, observedAt: observedAt, environmentFallback: endpoint)
            facts.latestReceipt = facts.latestReceipt ?? submission.receiptData
            try await database.withTransaction { [facts] session in
                try FactStore.apply(facts, receiptObservedAt: observedAt, notificationID: nil, appUserID: appUserID, in: session)
            }
            let views = try await reader.subscriber(appUserID: appUserID) ?? []
            return try JSONResponse(document: SubscriberDocument(appUserID: appUserID, views: views)).response(from: request, context: context)
        case .retry(let reason, _):
            let result = try await inbox.insert(try submission.queuedEntry(appUserID: appUserID))
            await workerSignal.signal()
            context.logger.info("receipt queued: upstream unavailable", metadata: [LogKey.error: "\(reason)", LogKey.notificationID: "\(result)"])
            return try JSONResponse(status: .accepted, document: ["status": "pending"]).response(from: request, context: context)
        case .permanent(let reason):
            throw APIError.receiptRejected("the App Store rejected the receipt: \(reason)")
        }
    }
}
