import ContractDocuments
import Hummingbird
import UseCases

/// The answer to a recorded purchase: the user's subscriptions now (200), or
/// `{"status":"pending"}` (202) when it was queued for the worker.
struct RecordedPurchaseResponse: ResponseGenerator {
    let recorded: PurchaseRecorder.Recorded
    let appUserID: String

    init(_ recorded: PurchaseRecorder.Recorded, appUserID: String) {
        self.recorded = recorded
        self.appUserID = appUserID
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        switch recorded {
        case .applied(let body):
            try JSONBodyResponse(body: body).response(from: request, context: context)
        case .queued:
            try JSONResponse(status: .accepted, document: ["status": "pending"] as [String: String]).response(
                from: request, context: context)
        }
    }
}
