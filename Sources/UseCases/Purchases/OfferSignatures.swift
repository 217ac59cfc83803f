import AppStoreSignature
import Foundation
import Postgres
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

    private let apps: AppRegistry
    private let database: PostgresClient
    private let appAccountTokens: AppAccountTokens

    /// Signs for the configured `apps`, reading the catalog from `database`.
    public init(database: PostgresClient, apps: AppRegistry) {
        self.apps = apps
        self.database = database
        appAccountTokens = AppAccountTokens(database: database, apps: apps)
    }

    /// One eligibility JWS for each product answered `eligible` (allowed) or `ineligible`
    /// (refused), for the customer who owns `transactionID`; a product without an offer, or
    /// unknown, gets none: StoreKit then decides alone.
    public func eligibilitySignatures(
        answers: [String: EligibilityAnswer], transactionID: String, bundleID: String?, now: Date = Date()
    ) throws -> [String: String] {
        let signer = try signer(bundleID: try signingBundleID(bundleID))
        var signatures: [String: String] = [:]
        for (productID, answer) in answers where answer == .eligible || answer == .ineligible {
            signatures[productID] = try signer.introductoryOfferEligibility(
                productID: productID, allowIntroductoryOffer: answer == .eligible, transactionID: transactionID, now: now)
        }
        return signatures
    }

    /// A promotional offer `offerID` of the auto-renewable subscription `productID` for
    /// `appUserID`. The v1 signature names the user's app account token (the one
    /// `GET /v1/subscribers/{id}/app-account-token` gives), which the purchase must carry;
    /// the v2 JWS names `transactionID` when given.
    public func promotionalOffer(
        appUserID: String, productID: String, offerID: String, format: Format, transactionID: String?, bundleID: String?,
        now: Date = Date()
    ) async throws -> PromotionalOffer {
        let bundleID = try signingBundleID(bundleID)
        let signer = try signer(bundleID: bundleID)
        let catalog = try await ProductStore(client: database).catalog()
        guard let product = catalog.product(productID), product.type == .autoRenewable else {
            throw UseCaseError.malformed(
                "\(productID) is not an auto-renewable subscription in the catalog; promotional offers are for those only")
        }
        try await checkOfferRules(of: product, offerID: offerID, appUserID: appUserID, bundleID: bundleID, now: now)
        switch format {
        case .v2:
            return .v2(jws: try signer.promotionalOffer(productID: productID, offerID: offerID, transactionID: transactionID, now: now))
        case .v1:
            let token = try await appAccountTokens.token(for: appUserID, bundleID: bundleID)
            return .v1(
                try signer.promotionalOfferV1(productID: productID, offerID: offerID, appAccountToken: token, now: now),
                appAccountToken: token)
        }
    }

    /// Refuses an offer the catalog does not list for `product`, or whose audiences the
    /// customer is in none of, judged from the user's subscriptions in the product's group now.
    /// A product that lists no offers has no rules: any offer id, for anyone.
    private func checkOfferRules(of product: Product, offerID: String, appUserID: String, bundleID: String, now: Date) async throws {
        guard let rules = product.promotionalOffers else { return }
        guard let rule = rules.first(where: { $0.offerID == offerID }) else {
            throw UseCaseError.notFound("the catalog lists no promotional offer \(offerID) for \(product.productID)")
        }
        let subscriptions = try await SubscriptionReader(client: database).subscriber(appUserID: appUserID, now: now) ?? []
        let group = subscriptions.map(\.snapshot).filter {
            $0.bundleID == bundleID && $0.subscriptionGroupID != nil && $0.subscriptionGroupID == product.subscriptionGroupID
        }
        guard rule.admits(group) else {
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
        guard let key = apps.app(bundleID: bundleID)?.apiKey else {
            throw UseCaseError.notConfigured(
                "\(bundleID) has no In-App Purchase key (issuer_id, key_id and private_key_file in SUBSCRIPTIOND_CONFIG, or APPSTORE_ISSUER_ID, APPSTORE_KEY_ID, APPSTORE_PRIVATE_KEY_FILE)"
            )
        }
        do {
            return try StoreKitOfferSigner(
                privateKeyPEM: key.privateKey.revealed, keyID: key.keyID, issuerID: key.issuerID, bundleID: bundleID)
        } catch {
            throw UseCaseError.notConfigured("\(bundleID)'s In-App Purchase key cannot sign")
        }
    }
}
