import Hummingbird
import StoredAnswers

/// `GET /v1/subscriptions/{original_transaction_id}`.
struct SubscriptionsController<Context: RequestContext> {
    let answers: ReadAnswers

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("subscriptions/:original_transaction_id") { _, context in
            let id = try context.parameters.require("original_transaction_id")
            return try ReadAnswerMetrics.response(
                try await answers.subscriptionBody(originalTransactionID: id), of: .subscription,
                missing: "no subscription with original_transaction_id \(id)")
        }
    }
}
