import Access
import Hummingbird
import Settings
import UseCases

/// `POST /v1/receipts`: the app's backend sends a device's receipt for a user.
///
/// ``PurchaseRecorder`` has it verified (or, for an app moved off `verifyReceipt`, looked up
/// by the transaction id it names) and applied, or queued (`202 pending`) when Apple does
/// not answer in time.
struct ReceiptsController<Context: PrincipalRequestContext> {
    let purchases: PurchaseRecorder
    let apps: AppRegistry
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<Context>) {
        group.add(.postReceipts) { request, context in
            let body = try await QueryRequest.object(request, maxBytes: maxBodyBytes)
            let appUserID = try QueryRequest.string(body, "app_user_id")
            let submission = try ReceiptSubmission(
                receiptData: try QueryRequest.string(body, "receipt_data", maxLength: maxBodyBytes),
                bundleID: try QueryRequest.optionalString(body, "bundle_id"), apps: apps)
            let recorded = try await purchases.record(
                receipt: submission, appUserID: appUserID, visibleTo: try context.requirePrincipal().apps, logger: context.logger)
            return try RecordedPurchaseResponse(recorded, appUserID: appUserID).response(from: request, context: context)
        }
    }
}
