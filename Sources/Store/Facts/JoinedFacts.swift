import AppStore
import Foundation
import Postgres
import Subscriptions

/// The facts of several subscriptions as one read statement returns them: one row per
/// transaction (or one row with NULL transaction columns for a subscription without any),
/// each carrying its subscription's renewal info, and optionally its `updated_at` and the
/// catalog's group for the transaction's product.
///
/// The statements select `JoinedFacts.columns` from `transactions t` and `renewal_info r`,
/// plus `link_environment` and `link_original_transaction_id` (the subscription the row
/// belongs to, also when it has no transaction), `subscription_updated_at` and
/// `catalog_group_id` (either may be NULL).
struct JoinedFacts {
    /// A subscription: original transaction ids are unique per environment only.
    struct Key: Hashable {
        let environment: AppStoreEnvironment
        let originalTransactionID: String
    }

    /// The transaction and renewal columns of a joined read.
    static let columns: StaticString = """
        t.environment, t.transaction_id, t.original_transaction_id, t.bundle_id, t.product_id, t.subscription_group_id,
        t.purchase_date, t.original_purchase_date, t.expires_date, t.web_order_line_item_id, t.is_trial_period,
        t.is_in_intro_offer_period, t.is_upgraded, t.cancellation_date, t.cancellation_reason, t.ownership_type,
        t.offer_code_ref_name, t.promotional_offer_id, t.source, t.stated_at, t.offer_type, t.app_account_token,
        t.product_type, t.quantity, t.price_milliunits, t.currency, t.storefront, t.revocation_type, t.revocation_percentage, t.app_transaction_id,
        t.offer_discount_type, t.offer_period, t.billing_plan_type, t.commitment_expires_at,
        r.environment AS renewal_environment, r.original_transaction_id AS renewal_original_transaction_id,
        r.bundle_id AS renewal_bundle_id, r.product_id AS renewal_product_id,
        r.auto_renew_product_id AS renewal_auto_renew_product_id, r.auto_renew_status AS renewal_auto_renew_status,
        r.expiration_intent AS renewal_expiration_intent,
        r.is_in_billing_retry_period AS renewal_is_in_billing_retry_period,
        r.grace_period_expires_date AS renewal_grace_period_expires_date,
        r.price_consent_status AS renewal_price_consent_status,
        r.eligible_win_back_offer_ids AS renewal_eligible_win_back_offer_ids, r.observed_at AS renewal_observed_at,
        r.renewal_price_milliunits AS renewal_renewal_price_milliunits, r.renewal_currency AS renewal_renewal_currency
        """

    /// Subscriptions in the order their first row came.
    private(set) var keys: [Key] = []
    /// Each subscription's transaction facts, in row order.
    private(set) var transactions: [Key: [TransactionFact]] = [:]
    /// Each subscription's renewal info, when it has any.
    private(set) var renewals: [Key: RenewalFact] = [:]
    /// `subscriptions.updated_at`, when the statement selected it and the row exists.
    private(set) var updatedAt: [Key: Date] = [:]
    /// The catalog's group per product, for products the catalog lists with a group.
    private(set) var catalogGroups: [String: String] = [:]

    /// Groups the rows by subscription.
    init(rows: some Sequence<PostgresRow>) throws {
        var seen: Set<Key> = []
        for row in rows {
            let fact = try row.text("transaction_id") == nil ? nil : try TransactionFact(row: row)
            let key = Key(
                environment: try AppStoreEnvironment(row: row, column: "link_environment"),
                originalTransactionID: try row.decode("link_original_transaction_id")
            )
            if seen.insert(key).inserted {
                keys.append(key)
                if try row.text("renewal_original_transaction_id") != nil {
                    renewals[key] = try RenewalFact(row: row, prefix: "renewal_")
                }
                if let date = try row.decode("subscription_updated_at", as: Date?.self) { updatedAt[key] = date }
            }
            if let fact {
                transactions[key, default: []].append(fact)
                if let group = try row.decode("catalog_group_id", as: String?.self) { catalogGroups[fact.productID] = group }
            }
        }
    }

    /// Every transaction and renewal fact of the read, as one customer's history.
    var history: CustomerHistory {
        CustomerHistory(transactions: transactions.values.flatMap { $0 }, renewals: Array(renewals.values))
    }

    /// Whether every view's `updatedAt` is its stored `subscriptions.updated_at` (not the
    /// time of the read, which `views(at:)` gives a subscription without its row).
    func haveStoredUpdatedAt(_ views: [SubscriptionView]) -> Bool {
        views.allSatisfy { view in
            updatedAt[Key(environment: view.snapshot.environment, originalTransactionID: view.snapshot.originalTransactionID)] != nil
        }
    }

    /// The subscriptions with at least one period, their status computed at `now`, in key order.
    func views(at now: Date) -> [SubscriptionView] {
        keys.compactMap { key in
            let transactions = TransactionFact.coalesced(transactions[key] ?? [])
            let renewal = renewals[key]
            guard
                var snapshot = SubscriptionStatusRule.snapshot(
                    originalTransactionID: key.originalTransactionID, transactions: transactions, renewal: renewal, at: now
                )
            else { return nil }
            // The catalog's group wins; products it does not list keep the receipt's group.
            snapshot.subscriptionGroupID = catalogGroups[snapshot.productID] ?? snapshot.subscriptionGroupID
            return SubscriptionView(snapshot: snapshot, updatedAt: updatedAt[key] ?? now, transactions: transactions, renewal: renewal)
        }
    }
}
