import AppStore
import Foundation
import Postgres
import Subscriptions

extension RenewalFact {
    /// The `renewal_info` columns `init(row:)` reads. Named rather than `*`: a prepared
    /// statement whose result columns change (a migration adding one while connections
    /// live) fails until the connection is replaced.
    static let columns: StaticString = """
        environment, original_transaction_id, bundle_id, product_id, auto_renew_product_id, auto_renew_status,
        expiration_intent, is_in_billing_retry_period, grace_period_expires_date, price_consent_status,
        eligible_win_back_offer_ids, observed_at, renewal_price_milliunits, renewal_currency
        """

    /// Reads one `renewal_info` row; `prefix` names the columns of a joined read
    /// (`renewal_observed_at` with prefix `renewal_`).
    init(row: PostgresRow, prefix: String = "") throws {
        let intent: String? = try row.decode(prefix + "expiration_intent")
        self.init(
            originalTransactionID: try row.decode(prefix + "original_transaction_id"),
            bundleID: try row.decode(prefix + "bundle_id"),
            environment: try AppStoreEnvironment(row: row, column: prefix + "environment"),
            productID: try row.decode(prefix + "product_id"),
            autoRenewProductID: try row.decode(prefix + "auto_renew_product_id"),
            autoRenewStatus: try row.decode(prefix + "auto_renew_status"),
            expirationIntent: intent.flatMap(ExpirationIntent.init(rawValue:)),
            isInBillingRetryPeriod: try row.decode(prefix + "is_in_billing_retry_period"),
            gracePeriodExpiresDate: try row.decode(prefix + "grace_period_expires_date"),
            priceConsentStatus: try row.decode(prefix + "price_consent_status"),
            eligibleWinBackOfferIDs: try row.decode(prefix + "eligible_win_back_offer_ids"),
            observedAt: try row.decode(prefix + "observed_at"),
            renewalPriceMilliunits: try row.decode(prefix + "renewal_price_milliunits"),
            renewalCurrency: try row.decode(prefix + "renewal_currency")
        )
    }

    /// The fact as its row reads back once written: every date at the column's precision.
    var asStored: RenewalFact {
        var stored = self
        stored.gracePeriodExpiresDate = gracePeriodExpiresDate?.asStoredInPostgres
        stored.observedAt = observedAt.asStoredInPostgres
        return stored
    }

    /// Replaces the stored renewal info of this original transaction.
    func upsert(in session: PostgresSession) throws {
        try session.execute(
            PostgresQuery(
                """
                INSERT INTO renewal_info (
                    environment, original_transaction_id, bundle_id, product_id, auto_renew_product_id, auto_renew_status,
                    expiration_intent, is_in_billing_retry_period, grace_period_expires_date, price_consent_status,
                    eligible_win_back_offer_ids, observed_at, renewal_price_milliunits, renewal_currency)
                VALUES (\(environment.rawValue), \(originalTransactionID), \(bundleID), \(productID), \(autoRenewProductID),
                    \(autoRenewStatus), \(expirationIntent?.rawValue), \(isInBillingRetryPeriod), \(gracePeriodExpiresDate),
                    \(priceConsentStatus), \(eligibleWinBackOfferIDs)::text[], \(observedAt), \(renewalPriceMilliunits), \(renewalCurrency))
                ON CONFLICT (environment, original_transaction_id) DO UPDATE SET
                    bundle_id = EXCLUDED.bundle_id, product_id = EXCLUDED.product_id,
                    auto_renew_product_id = EXCLUDED.auto_renew_product_id, auto_renew_status = EXCLUDED.auto_renew_status,
                    expiration_intent = EXCLUDED.expiration_intent,
                    is_in_billing_retry_period = EXCLUDED.is_in_billing_retry_period,
                    grace_period_expires_date = EXCLUDED.grace_period_expires_date,
                    price_consent_status = EXCLUDED.price_consent_status,
                    eligible_win_back_offer_ids = EXCLUDED.eligible_win_back_offer_ids, observed_at = EXCLUDED.observed_at,
                    renewal_price_milliunits = EXCLUDED.renewal_price_milliunits, renewal_currency = EXCLUDED.renewal_currency,
                    updated_at = now()
                """
            ).prepared())
    }
}
