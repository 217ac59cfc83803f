import AppStore
import Foundation

extension TransactionFact {
    /// The fact a verified signed transaction states; nil without the ids, the product or a
    /// purchase date (it cannot be placed in time).
    ///
    /// `offerType` 1 is the introductory offer: a free trial when `offerDiscountType` says
    /// FREE_TRIAL, else a paid introductory period (the v1 meanings of `is_trial_period` and
    /// `is_in_intro_offer_period`, which eligibility counts).
    public init?(signedTransaction t: JWSTransactionPayload, bundleID fallback: String, environment: AppStoreEnvironment) {
        guard let transactionID = t.transactionID ?? t.originalTransactionID,
            let originalTransactionID = t.originalTransactionID ?? t.transactionID,
            let productID = t.productID, let purchaseDate = t.purchaseDate
        else { return nil }
        let isIntroductory = t.offerTypeRaw == OfferTypeV2.introductory.rawValue
        let isTrial = isIntroductory && t.offerDiscountType == .freeTrial
        self.init(
            transactionID: transactionID,
            originalTransactionID: originalTransactionID,
            productID: productID,
            bundleID: t.bundleID ?? fallback,
            environment: t.environment ?? environment,
            subscriptionGroupID: t.subscriptionGroupIdentifier,
            purchaseDate: purchaseDate,
            originalPurchaseDate: t.originalPurchaseDate,
            expiresDate: t.expiresDate,
            webOrderLineItemID: t.webOrderLineItemID,
            isTrialPeriod: isTrial,
            isInIntroOfferPeriod: isIntroductory && !isTrial,
            isUpgraded: t.isUpgraded ?? false,
            cancellationDate: t.revocationDate,
            cancellationReason: t.revocationDate == nil ? nil : t.revocationReason.map(String.init),
            ownershipType: t.inAppOwnershipTypeRaw,
            offerCodeRefName: t.offerTypeRaw == OfferTypeV2.offerCode.rawValue ? t.offerIdentifier : nil,
            promotionalOfferID: t.offerTypeRaw == OfferTypeV2.promotional.rawValue ? t.offerIdentifier : nil,
            source: .v2,
            statedAt: t.signedDate,
            offerType: t.offerTypeRaw,
            appAccountToken: t.appAccountToken?.lowercased(),
            productType: t.type.map(ProductType.init),
            quantity: t.quantity,
            priceMilliunits: t.price.map(Int64.init),
            currency: t.currency,
            storefront: t.storefront,
            revocationType: t.revocationDate == nil ? nil : t.revocationTypeRaw,
            revocationPercentage: t.revocationDate == nil ? nil : t.revocationPercentage.flatMap { (0...100_000).contains($0) ? $0 : nil },
            appTransactionID: t.appTransactionID,
            offerDiscountType: t.offerDiscountTypeRaw,
            offerPeriod: t.offerPeriod,
            billingPlanType: t.billingPlanTypeRaw,
            commitmentExpiresAt: t.commitmentInfo?.commitmentExpiresDate
        )
    }
}

extension RenewalFact {
    /// The fact a verified signed renewal info states, timed by its own `signedDate` (so
    /// signed statements delivered in any order converge on the newest); nil without an
    /// original transaction id or a signing date.
    public init?(signedRenewalInfo r: JWSRenewalInfoPayload, bundleID: String, environment: AppStoreEnvironment) {
        guard let originalTransactionID = r.originalTransactionID, let signedDate = r.signedDate else { return nil }
        self.init(
            originalTransactionID: originalTransactionID,
            bundleID: bundleID,
            environment: r.environment ?? environment,
            productID: r.productID,
            autoRenewProductID: r.autoRenewProductID,
            autoRenewStatus: r.willAutoRenew,
            expirationIntent: r.expirationIntent,
            isInBillingRetryPeriod: r.isInBillingRetryPeriod ?? false,
            gracePeriodExpiresDate: r.gracePeriodExpiresDate,
            priceConsentStatus: r.priceIncreaseStatus.map(String.init),
            eligibleWinBackOfferIDs: r.eligibleWinBackOfferIDs,
            observedAt: signedDate,
            renewalPriceMilliunits: r.renewalPrice.map(Int64.init),
            renewalCurrency: r.renewalPrice == nil ? nil : r.currency
        )
    }
}

extension ReceiptFacts {
    /// The facts of verified signed data: a transaction and its renewal info (either may be
    /// absent — a TEST notification has neither). Non-subscription purchases are recorded
    /// as transactions and never become subscriptions (they have no expiry date).
    public init(
        signedTransaction transaction: JWSTransactionPayload?,
        renewalInfo: JWSRenewalInfoPayload?,
        bundleID: String,
        environment: AppStoreEnvironment
    ) {
        let facts = transaction.flatMap { TransactionFact(signedTransaction: $0, bundleID: bundleID, environment: environment) }
        let renewal = renewalInfo.flatMap { RenewalFact(signedRenewalInfo: $0, bundleID: bundleID, environment: environment) }
        self.init(
            environment: facts?.environment ?? renewal?.environment ?? environment,
            bundleID: bundleID,
            transactions: facts.map { [$0] } ?? [],
            renewals: renewal.map { [$0] } ?? [],
            latestReceipt: nil
        )
    }
}
