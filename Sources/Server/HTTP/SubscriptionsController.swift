import Access
import Hummingbird
import StoredAnswers

/// `GET /v1/subscriptions/{original_transaction_id}`.
struct SubscriptionsController<Context: PrincipalRequestContext> {
    let answers: ReadAnswers

    func addRoutes(to group: RouterGroup<Context>) {
        group.add(.getSubscription) { _, context in
            let id = try context.parameters.requireDecoded("original_transaction_id")
            return try ReadAnswerMetrics.response(
                try await answers.subscriptionBody(originalTransactionID: id, visibleTo: try context.requirePrincipal().apps),
                of: .subscription,
                missing: "no subscription with original_transaction_id \(id)")
        }
    }
}
