import Hummingbird
import Store
import SubscriptiondCore

/// `GET /v1/subscriptions/{original_transaction_id}`.
struct SubscriptionsController<Context: RequestContext> {
    let reader: SubscriptionReader

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("subscriptions/:original_transaction_id") { _, context in
            let id = try context.parameters.require("original_transaction_id")
            guard let view = try await reader.subscription(originalTransactionID: id) else {
                throw APIError.notFound("no subscription with original_transaction_id \(id)")
            }
            return JSONResponse(document: SubscriptionDocument(view, includeTransactions: true))
        }
    }
}
