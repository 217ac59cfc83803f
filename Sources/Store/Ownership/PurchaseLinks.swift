import AppStore
import Postgres
import Subscriptions

/// The `subscribers` rows of the purchases one batch of facts touches: who owns each, by
/// `PurchaseOwnership`, written inside the batch's transaction (the purchase is locked).
struct PurchaseLinks {
    let facts: ReceiptFacts
    let policy: LinkPolicy
    /// The user the facts were proved for (nil: a notification, a revalidation).
    let claimant: String?

    /// Applies the rule to purchase `id` after its facts merged; returns what changed.
    ///
    /// Facts with neither a claimant nor an app account token for the purchase cannot change
    /// who owns it (the rule already ran on everything stored), so nothing is read for them:
    /// most notifications cost no more than before there were link policies.
    @discardableResult
    func settle(originalTransactionID id: String, in session: PostgresSession) throws -> PurchaseOwnership.Change {
        guard claimant != nil || facts.transactions(of: id).contains(where: { $0.appAccountToken != nil }) else {
            return PurchaseOwnership.Change()
        }
        let environment = facts.environment.rawValue
        let owners = Set(
            try session.query(
                PostgresQuery(
                    """
                    SELECT app_user_id FROM subscribers WHERE environment = \(environment) AND original_transaction_id = \(id)
                    """
                ).prepared()
            ).map { try $0.decode("app_user_id", as: String.self) })
        let token = try AppAccountTokenStore.newestToken(environment: environment, originalTransactionID: id, in: session)
        let change = try PurchaseOwnership.change(policy: policy, claimant: claimant, token: token, owners: owners)
        for user in change.link {
            let byHint = change.linkedByHint.contains(user)
            try session.execute(
                PostgresQuery(
                    """
                    INSERT INTO subscribers (app_user_id, environment, original_transaction_id, bundle_id, via_hint)
                    VALUES (\(user), \(environment), \(id), \(facts.bundleID), \(byHint))
                    ON CONFLICT DO NOTHING
                    """
                ).prepared())
        }
        // A user who proves the purchase holds it by that proof, whatever linked it first.
        if let claimant, owners.contains(claimant) {
            try session.execute(
                PostgresQuery(
                    """
                    UPDATE subscribers SET via_hint = false
                    WHERE app_user_id = \(claimant) AND environment = \(environment) AND original_transaction_id = \(id) AND via_hint
                    """
                ).prepared())
        }
        for user in change.unlink {
            try session.execute(
                PostgresQuery(
                    """
                    DELETE FROM subscribers WHERE app_user_id = \(user) AND environment = \(environment) AND original_transaction_id = \(id)
                    """
                ).prepared())
        }
        return change
    }
}
