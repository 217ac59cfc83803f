import AppStore
import Foundation
import Postgres
import Subscriptions

extension TransactionFact {
    /// The columns of `transactions` this type reads, for SELECT lists.
    static let columns: StaticString = """
        environment, transaction_id, original_transaction_id, bundle_id, product_id, subscription_group_id,
        purchase_date, original_purchase_date, expires_date, web_order_line_item_id, is_trial_period,
        is_in_intro_offer_period, is_upgraded, cancellation_date, cancellation_reason, ownership_type,
        offer_code_ref_name, promotional_offer_id, source, stated_at, offer_type, app_account_token,
        product_type, quantity, price_milliunits, currency, storefront, revocation_type, revocation_percentage, app_transaction_id,
        offer_discount_type, offer_period, billing_plan_type, commitment_expires_at
        """

    /// Reads one `transactions` row.
    init(row: PostgresRow) throws {
        self.init(
            transactionID: try row.decode("transaction_id"),
            originalTransactionID: try row.decode("original_transaction_id"),
            productID: try row.decode("product_id"),
            bundleID: try row.decode("bundle_id"),
            environment: try AppStoreEnvironment(row: row),
            subscriptionGroupID: try row.decode("subscription_group_id"),
            purchaseDate: try row.decode("purchase_date"),
            originalPurchaseDate: try row.decode("original_purchase_date"),
            expiresDate: try row.decode("expires_date"),
            webOrderLineItemID: try row.decode("web_order_line_item_id"),
            isTrialPeriod: try row.decode("is_trial_period"),
            isInIntroOfferPeriod: try row.decode("is_in_intro_offer_period"),
            isUpgraded: try row.decode("is_upgraded"),
            cancellationDate: try row.decode("cancellation_date"),
            cancellationReason: try row.decode("cancellation_reason"),
            ownershipType: try row.decode("ownership_type"),
            offerCodeRefName: try row.decode("offer_code_ref_name"),
            promotionalOfferID: try row.decode("promotional_offer_id"),
            source: FactSource(rawValue: try row.decode("source")) ?? .v1,
            statedAt: try row.decode("stated_at"),
            offerType: try row.decode("offer_type"),
            appAccountToken: try row.decode("app_account_token"),
            productType: (try row.decode("product_type", as: String?.self)).flatMap(ProductType.init(rawValue:)),
            quantity: try row.decode("quantity"),
            priceMilliunits: try row.decode("price_milliunits"),
            currency: try row.decode("currency"),
            storefront: try row.decode("storefront"),
            revocationType: try row.decode("revocation_type"), revocationPercentage: try row.decode("revocation_percentage"),
            appTransactionID: try row.decode("app_transaction_id"),
            offerDiscountType: try row.decode("offer_discount_type"),
            offerPeriod: try row.decode("offer_period"),
            billingPlanType: try row.decode("billing_plan_type"),
            commitmentExpiresAt: try row.decode("commitment_expires_at")
        )
    }

    /// The fact as its row reads back once written: every date at the column's precision.
    var asStored: TransactionFact {
        var stored = self
        stored.purchaseDate = purchaseDate.asStoredInPostgres
        stored.originalPurchaseDate = originalPurchaseDate?.asStoredInPostgres
        stored.expiresDate = expiresDate?.asStoredInPostgres
        stored.cancellationDate = cancellationDate?.asStoredInPostgres
        stored.commitmentExpiresAt = commitmentExpiresAt?.asStoredInPostgres
        stored.statedAt = statedAt?.asStoredInPostgres
        return stored
    }

    /// Writes the fact, replacing the stored row: callers merge with the stored fact first.
    func upsert(in session: PostgresSession) throws {
        try session.execute(
            PostgresQuery(
                """
                INSERT INTO transactions (
                    environment, transaction_id, original_transaction_id, bundle_id, product_id, subscription_group_id,
                    purchase_date, original_purchase_date, expires_date, web_order_line_item_id, is_trial_period,
                    is_in_intro_offer_period, is_upgraded, cancellation_date, cancellation_reason, ownership_type,
                    offer_code_ref_name, promotional_offer_id, source, stated_at, offer_type, app_account_token,
                    product_type, quantity, price_milliunits, currency, storefront, revocation_type, revocation_percentage, app_transaction_id,
                    offer_discount_type, offer_period, billing_plan_type, commitment_expires_at)
                VALUES (\(environment.rawValue), \(transactionID), \(originalTransactionID), \(bundleID), \(productID),
                    \(subscriptionGroupID), \(purchaseDate), \(originalPurchaseDate), \(expiresDate), \(webOrderLineItemID),
                    \(isTrialPeriod), \(isInIntroOfferPeriod), \(isUpgraded), \(cancellationDate), \(cancellationReason),
                    \(ownershipType), \(offerCodeRefName), \(promotionalOfferID), \(source.rawValue), \(statedAt), \(offerType),
                    \(appAccountToken), \(productType?.rawValue), \(quantity), \(priceMilliunits), \(currency), \(storefront),
                    \(revocationType), \(revocationPercentage), \(appTransactionID), \(offerDiscountType), \(offerPeriod),
                    \(billingPlanType), \(commitmentExpiresAt))
                ON CONFLICT (environment, transaction_id) DO UPDATE SET
                    original_transaction_id = EXCLUDED.original_transaction_id, bundle_id = EXCLUDED.bundle_id,
                    product_id = EXCLUDED.product_id, subscription_group_id = EXCLUDED.subscription_group_id,
                    purchase_date = EXCLUDED.purchase_date, original_purchase_date = EXCLUDED.original_purchase_date,
                    expires_date = EXCLUDED.expires_date, web_order_line_item_id = EXCLUDED.web_order_line_item_id,
                    is_trial_period = EXCLUDED.is_trial_period, is_in_intro_offer_period = EXCLUDED.is_in_intro_offer_period,
                    is_upgraded = EXCLUDED.is_upgraded, cancellation_date = EXCLUDED.cancellation_date,
                    cancellation_reason = EXCLUDED.cancellation_reason, ownership_type = EXCLUDED.ownership_type,
                    offer_code_ref_name = EXCLUDED.offer_code_ref_name, promotional_offer_id = EXCLUDED.promotional_offer_id,
                    source = EXCLUDED.source, stated_at = EXCLUDED.stated_at, offer_type = EXCLUDED.offer_type, app_account_token = EXCLUDED.app_account_token,
                    product_type = EXCLUDED.product_type, quantity = EXCLUDED.quantity, price_milliunits = EXCLUDED.price_milliunits,
                    currency = EXCLUDED.currency, storefront = EXCLUDED.storefront, revocation_type = EXCLUDED.revocation_type,
                    revocation_percentage = EXCLUDED.revocation_percentage,
                    app_transaction_id = EXCLUDED.app_transaction_id,
                    offer_discount_type = EXCLUDED.offer_discount_type, offer_period = EXCLUDED.offer_period,
                    billing_plan_type = EXCLUDED.billing_plan_type, commitment_expires_at = EXCLUDED.commitment_expires_at,
                    updated_at = now()
                """
            ).prepared())
    }
}

extension AppStoreEnvironment {
    /// Reads the `environment` column.
    init(row: PostgresRow, column: String = "environment") throws {
        let text: String = try row.decode(column)
        guard let environment = AppStoreEnvironment(rawValue: text) else {
            throw StoreError("unknown environment '\(text)' in column \(column)")
        }
        self = environment
    }
}
