import Access
import Hummingbird
import UseCases

/// `POST /v1/transactions`: the v2 twin of `/v1/receipts`. The app's backend sends a
/// StoreKit 2 signed transaction from the device (verified offline) or a transaction id
/// (looked up with the App Store Server API); ``PurchaseRecorder`` applies it and links the user.
struct TransactionsController<Context: PrincipalRequestContext> {
    let purchases: PurchaseRecorder
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<Context>) {
        group.add(.postTransactions) { request, context in
            let body = try await QueryRequest.object(request, maxBytes: maxBodyBytes)
            let appUserID = try QueryRequest.string(body, "app_user_id")
            let signed = try QueryRequest.optionalString(body, "signed_transaction", maxLength: maxBodyBytes)
            let transactionID = try QueryRequest.optionalString(body, "transaction_id", maxLength: 64)
            let apps = try context.requirePrincipal().apps
            let recorded: PurchaseRecorder.Recorded
            switch (signed, transactionID) {
            case (let signed?, nil):
                recorded = try await purchases.record(
                    signedTransaction: signed, appUserID: appUserID, visibleTo: apps, logger: context.logger)
            case (nil, let transactionID?):
                recorded = try await purchases.record(
                    lookup: transactionID, bundleID: try QueryRequest.optionalString(body, "bundle_id"), appUserID: appUserID,
                    visibleTo: apps, logger: context.logger)
            default:
                throw APIError.malformed("give exactly one of signed_transaction and transaction_id")
            }
            return try RecordedPurchaseResponse(recorded, appUserID: appUserID).response(from: request, context: context)
        }
    }
}
