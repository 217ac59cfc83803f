import Access
import AppStoreSignature
import Foundation
import Settings
import Store
import Subscriptions

/// The offer signatures StoreKit enforces, signed with the app's In-App Purchase key (its
/// App Store Server API key): an introductory-offer eligibility JWS per answered product
/// (`POST /v1/eligibility` with `"sign": true`) and promotional offers (`POST /v1/offers/sign`).
public struct OfferSignatures: Sendable {
    /// A promotional offer's signature, in the format the app's StoreKit code takes.
    public enum PromotionalOffer: Sendable, Equatable {
        /// StoreKit 2's JWS purchase option.
        case v2(jws: String)
        /// The original API's key id, nonce, timestamp and signature, and the app account
        /// token it signed (the purchase must carry it as `applicationUsername` / `appAccountToken`).
        case v1(PromotionalOfferSignatureV1, appAccountToken: String)
    }

    /// Which promotional-offer signature to make.
    public enum Format: String, Sendable, CaseIterable {
        case v1, v2
    }

    /// Introductory-offer answers for one customer and the JWS StoreKit enforces for each
    /// product answered `eligible` (allowed) or `ineligible` (refused).
    public struct SignedEligibility: Sendable, Equatable {
        /// The answer per product id.
        public let answers: [String: EligibilityAnswer]
        /// The eligibility JWS per product id; a product without an offer, or unknown, has
        /// none: StoreKit then decides alone.
        public let signatures: [String: String]
    }

    private let apps: AppRegistry
    private let catalog: any CatalogSource
    private let accounts: any AppleAccountSource
    private let appAccountTokens: AppAccountTokens
    private let eligibilityPolicy: EligibilityPolicy
    private let audit: any AuditTrail

    /// Signs for the configured `apps` from `catalog` and the customers `accounts` finds; the
    /// v1 format names the user's token from `appAccountTokens`; eligibility is judged under
    /// `eligibilityPolicy`; every promotional offer signed is recorded in `audit`.
    public init(
        apps: AppRegistry, catalog: any CatalogSource, accounts: any AppleAccountSource, appAccountTokens: AppAccountTokens,
        eligibilityPolicy: EligibilityPolicy, audit: any AuditTrail
    ) {
        self.apps = apps
        self.catalog = catalog
        self.accounts = accounts
        self.appAccountTokens = appAccountTokens
        self.eligibilityPolicy = eligibilityPolicy
        self.audit = audit
    }

    /// The eligibility of `productIDs`, signed, for the Apple account behind `transactionID`,
    /// which this server must have verified for `appUserID` (a linked purchase's transaction
    /// or original transaction id, or the `appTransactionId` of an AppTransaction the user
    /// posted): `unverifiedTransaction` otherwise, and nothing is signed. The answers are
    /// judged from that account's purchases with the user's own, in the environments that
    /// grant in the app, and every JWS names `transactionID`.
    public func eligibility(
        appUserID: String, transactionID: String, productIDs: [String], bundleID: String?, now: Date = Date()
    ) async throws -> SignedEligibility {
        let bundleID = try signingBundleID(bundleID)
        let signer = try signer(bundleID: bundleID)
        let account = try await verifiedAccount(appUserID: appUserID, transactionID: transactionID, bundleID: bundleID, now: now)
        return try await signedEligibility(
            history: account.history, productIDs: productIDs, transactionID: transactionID, signer: signer, now: now)
    }

    /// The eligibility of `productIDs`, signed, for the Apple account of receipts Apple verified
    /// just now: `transactionID` must be one of theirs (a transaction or original transaction
    /// id), else `unverifiedTransaction`.
    public func eligibility(
        receipts: [ReceiptFacts], transactionID: String, productIDs: [String], bundleID: String?, now: Date = Date()
    ) async throws -> SignedEligibility {
        let bundleID = try signingBundleID(bundleID)
        let signer = try signer(bundleID: bundleID)
        let own = receipts.filter { $0.bundleID == bundleID }
        guard
            own.contains(where: {
                $0.transactions.contains { $0.transactionID == transactionID || $0.originalTransactionID == transactionID }
            })
        else {
            throw UseCaseError.unverifiedTransaction(
                "transaction \(transactionID) is not in the receipt Apple verified for \(bundleID); a signature names a transaction of the customer"
            )
        }
        return try await signedEligibility(
            history: CustomerHistory(receipts: own), productIDs: productIDs, transactionID: transactionID, signer: signer, now: now)
    }

    private func signedEligibility(
        history: CustomerHistory, productIDs: [String], transactionID: String, signer: StoreKitOfferSigner, now: Date
    ) async throws -> SignedEligibility {
        let catalog = try await self.catalog.catalog()
        let answers = EligibilityRule.answers(
            for: productIDs, catalog: catalog, history: history.counting(under: apps.entitlementPolicies), now: now,
            policy: eligibilityPolicy)
        var signatures: [String: String] = [:]
        for (productID, answer) in answers where answer == .eligible || answer == .ineligible {
            signatures[productID] = try signer.introductoryOfferEligibility(
                productID: productID, allowIntroductoryOffer: answer == .eligible, transactionID: transactionID, now: now)
        }
        return SignedEligibility(answers: answers, signatures: signatures)
    }

    /// A promotional offer `offerID` of the auto-renewable subscription `productID` for
    /// `appUserID`, who must have been verified for `transactionID` as ``eligibility(appUserID:transactionID:productIDs:bundleID:now:)``
    /// says. The offer's audiences are judged from that Apple account's subscriptions in the
    /// product's group, in the environments that grant in the app. The v2 JWS names
    /// `transactionID`; the v1 signature names the user's app account token (the one
    /// `GET /v1/subscribers/{id}/app-account-token` gives), which the purchase must carry.
    public func promotionalOffer(
        appUserID: String, productID: String, offerID: String, format: Format, transactionID: String, bundleID: String?,
        by principal: Principal, now: Date = Date()
    ) async throws -> PromotionalOffer {
        guard principal.may(.offers) else { throw UseCaseError.forbidden("the key \(principal.name) lacks the offers scope") }
        if let bundleID { try principal.apps.require(bundleID) }
        let bundleID = try signingBundleID(bundleID)
        try principal.apps.require(bundleID)
        let signer = try signer(bundleID: bundleID)
        let catalog = try await self.catalog.catalog()
        guard let product = catalog.product(productID), product.type == .autoRenewable else {
            throw UseCaseError.malformed(
                "\(productID) is not an auto-renewable subscription in the catalog; promotional offers are for those only")
        }
        guard product.bundleID == bundleID else {
            throw UseCaseError.malformed("\(productID) is a product of \(product.bundleID), not of \(bundleID)")
        }
        let account = try await verifiedAccount(appUserID: appUserID, transactionID: transactionID, bundleID: bundleID, now: now)
        try checkOfferRules(of: product, offerID: offerID, appUserID: appUserID, account: account)
        let signed: PromotionalOffer
        switch format {
        case .v2:
            signed = .v2(jws: try signer.promotionalOffer(productID: productID, offerID: offerID, transactionID: transactionID, now: now))
        case .v1:
            let token = try await appAccountTokens.token(for: appUserID, bundleID: bundleID)
            signed = .v1(
                try signer.promotionalOfferV1(productID: productID, offerID: offerID, appAccountToken: token, now: now),
                appAccountToken: token)
        }
        // A signature is a promise: who asked for it is kept (never the signature itself).
        try await audit.record(
            action: "offer_signed", actor: principal.actor, appUserID: appUserID,
            detail: [
                "bundle_id": bundleID, "product_id": productID, "offer_id": offerID, "transaction_id": transactionID,
                "format": format.rawValue,
            ])
        return signed
    }

    /// The account behind `transactionID` when it was verified for `appUserID`; else `unverifiedTransaction`.
    private func verifiedAccount(appUserID: String, transactionID: String, bundleID: String, now: Date) async throws -> AppleAccountRead {
        guard let account = try await accounts.account(appUserID: appUserID, transactionID: transactionID, bundleID: bundleID, now: now)
        else {
            throw UseCaseError.unverifiedTransaction(
                "transaction \(transactionID) was not verified for \(appUserID) in \(bundleID): post the user's purchase (/v1/transactions, /v1/receipts) or AppTransaction (/v1/app-transactions) first"
            )
        }
        return account
    }

    /// Refuses an offer the catalog does not list for `product`, or whose audiences the
    /// customer is in none of, judged from the account's subscriptions in the product's group
    /// in environments that grant. A product that lists no offers has no rules: any offer id.
    private func checkOfferRules(of product: Product, offerID: String, appUserID: String, account: AppleAccountRead) throws {
        guard let rules = product.promotionalOffers else { return }
        guard let rule = rules.first(where: { $0.offerID == offerID }) else {
            throw UseCaseError.notFound("the catalog lists no promotional offer \(offerID) for \(product.productID)")
        }
        guard rule.admits(product.offerGroup(of: account.subscriptions, policies: apps.entitlementPolicies)) else {
            let audiences = rule.audiences.map(\.rawValue).joined(separator: ", ")
            throw UseCaseError.notEligible("\(appUserID) is not among the customers offer \(offerID) is for (\(audiences))")
        }
    }

    /// The app that signs: `bundleID`, or the only app with an In-App Purchase key.
    private func signingBundleID(_ bundleID: String?) throws -> String {
        if let bundleID {
            guard apps.app(bundleID: bundleID) != nil else { throw UseCaseError.malformed("\(bundleID) is not a configured app") }
            return bundleID
        }
        let keyed = apps.bundleIDs.filter { apps.app(bundleID: $0)?.apiKey != nil }
        guard keyed.count == 1, let only = keyed.first else {
            throw keyed.isEmpty
                ? UseCaseError.notConfigured(
                    "signing offers needs an app's In-App Purchase key (APPSTORE_ISSUER_ID, APPSTORE_KEY_ID, APPSTORE_PRIVATE_KEY_FILE)")
                : UseCaseError.malformed("bundle_id is required: several apps have In-App Purchase keys")
        }
        return only
    }

    private func signer(bundleID: String) throws -> StoreKitOfferSigner {
        let signer: StoreKitOfferSigner?
        do {
            signer = try apps.app(bundleID: bundleID)?.offerSigner()
        } catch {
            throw UseCaseError.notConfigured("\(bundleID)'s In-App Purchase key cannot sign")
        }
        guard let signer else {
            throw UseCaseError.notConfigured(
                "\(bundleID) has no In-App Purchase key (issuer_id, key_id and private_key_file in SUBSCRIPTIOND_CONFIG, or APPSTORE_ISSUER_ID, APPSTORE_KEY_ID, APPSTORE_PRIVATE_KEY_FILE)"
            )
        }
        return signer
    }
}
