import AppStore
import Foundation
import Store
import Subscriptions

// The read endpoints' documents written without `JSONEncoder`: the same keys as their
// `encode(to:)`, in sorted order (the tests compare both outputs byte for byte).

extension SubscriptionDocument: ContractJSONWritable {
    public func write(to writer: inout ContractJSONWriter) {
        let snapshot = view.snapshot
        // The latest period's money, when the document shows money.
        let latest = money.map { money in (fact: latestTransaction, money: latestTransaction.flatMap { money[$0.transactionID] }) }
        writer.object { json in
            json.key("app_account_token")
            json.value(snapshot.appAccountToken)
            json.key("auto_renew")
            json.value(snapshot.autoRenew)
            json.key("auto_renew_product_id")
            json.value(snapshot.autoRenewProductID)
            // How Apple bills the current period: up front, or monthly through a 12-month commitment.
            let commitment = latestTransaction.flatMap { $0.isMonthlyCommitment ? $0 : nil }
            json.key("billing_plan")
            json.value(commitment == nil ? "upfront" : "monthly_commitment")
            json.key("bundle_id")
            json.value(snapshot.bundleID)
            json.key("commitment_ends_at")
            json.value(commitment?.commitmentExpiresAt)
            if let latest {
                json.key("currency")
                json.value(latest.money?.currency)
            }
            // Apple's eligibleWinBackOfferIds from the newest renewal info ([] when it names none).
            json.key("eligible_win_back_offer_ids")
            json.array { json in
                for offerID in view.renewal?.eligibleWinBackOfferIDs ?? [] { json.value(offerID) }
            }
            json.key("entitled")
            json.value(snapshot.entitled)
            json.key("environment")
            json.value(snapshot.environment.rawValue)
            json.key("expiration_intent")
            json.value(snapshot.expirationIntent?.rawValue)
            json.key("expires_at")
            json.value(snapshot.expiresAt)
            json.key("grace_period_expires_at")
            json.value(snapshot.gracePeriodExpiresAt)
            json.key("in_intro_offer")
            json.value(snapshot.inIntroOffer)
            json.key("in_trial")
            json.value(snapshot.inTrial)
            json.key("offer_type")
            json.value(snapshot.offerKind?.rawValue)
            json.key("original_transaction_id")
            json.value(snapshot.originalTransactionID)
            // PURCHASED / FAMILY_SHARED → purchased / family_shared.
            json.key("ownership")
            json.value(snapshot.ownershipType?.lowercased())
            if let latest { json.priceAndProceeds(latest.money) }
            json.key("product_id")
            json.value(snapshot.productID)
            if latest != nil {
                // What the next renewal will cost, as Apple's signed renewal info says.
                let renewal = view.renewal?.renewalPrice
                json.key("renewal_currency")
                json.value(renewal?.currency)
                json.key("renewal_price")
                json.value(renewal.map { PurchaseMoney.text($0.amount) })
            }
            json.key("revocation_reason")
            json.value(snapshot.revocationReason)
            json.key("revoked_at")
            json.value(snapshot.revokedAt)
            json.key("source")
            json.value(snapshot.source.rawValue)
            json.key("status")
            json.value(snapshot.status.rawValue)
            if let latest {
                json.key("storefront")
                json.value(latest.fact?.storefront)
            }
            json.key("subscription_group_id")
            json.value(snapshot.subscriptionGroupID)
            if includeTransactions {
                json.key("transactions")
                json.array { json in
                    for fact in view.transactions {
                        TransactionDocument(fact: fact, showsMoney: money != nil, money: money?[fact.transactionID]).write(to: &json)
                    }
                }
            }
            json.key("updated_at")
            json.value(view.updatedAt)
        }
    }
}

extension TransactionDocument: ContractJSONWritable {
    public func write(to writer: inout ContractJSONWriter) {
        writer.object { json in
            json.key("cancellation_date")
            json.value(fact.cancellationDate)
            json.key("cancellation_reason")
            json.value(fact.cancellationReason)
            if showsMoney {
                json.key("currency")
                json.value(money?.currency)
            }
            json.key("expires_date")
            json.value(fact.expiresDate)
            json.key("is_in_intro_offer_period")
            json.value(fact.isInIntroOfferPeriod)
            json.key("is_trial_period")
            json.value(fact.isTrialPeriod)
            json.key("is_upgraded")
            json.value(fact.isUpgraded)
            json.key("original_transaction_id")
            json.value(fact.originalTransactionID)
            json.key("ownership_type")
            json.value(fact.ownershipType)
            if showsMoney { json.priceAndProceeds(money) }
            json.key("product_id")
            json.value(fact.productID)
            json.key("purchase_date")
            json.value(fact.purchaseDate)
            json.key("revocation_type")
            json.value(fact.cancellationDate == nil ? nil : fact.revocationType)
            if showsMoney {
                json.key("storefront")
                json.value(fact.storefront)
            }
            json.key("subscription_group_id")
            json.value(fact.subscriptionGroupID)
            json.key("transaction_id")
            json.value(fact.transactionID)
            json.key("web_order_line_item_id")
            json.value(fact.webOrderLineItemID)
        }
    }
}

extension SubscriberDocument: ContractJSONWritable {
    public func write(to writer: inout ContractJSONWriter) {
        writer.object { json in
            json.key("app_user_id")
            json.value(appUserID)
            json.key("apple_accounts")
            json.value(appleAccounts)
            json.key("entitled_groups")
            json.array { json in
                for group in entitledGroups { json.value(group) }
            }
            json.key("entitlements")
            EntitlementsDocument.write(entitlements, to: &json)
            json.key("purchases")
            json.array { json in
                for purchase in purchases {
                    PurchaseDocument(purchase: purchase, money: money(ofPurchase: purchase.fact)).write(to: &json)
                }
            }
            json.key("subscriptions")
            json.array { json in
                for document in subscriptions { document.write(to: &json) }
            }
        }
    }
}

extension EntitlementsDocument: ContractJSONWritable {
    public func write(to writer: inout ContractJSONWriter) {
        writer.object { json in
            json.key("app_user_id")
            json.value(appUserID)
            json.key("entitlements")
            Self.write(entitlements, to: &json)
        }
    }

    /// `{"<id>": {"active", "environment", "expires_at", "product_id", "source"}, ...}`, by id.
    static func write(_ entitlements: [String: EntitlementState], to writer: inout ContractJSONWriter) {
        writer.object { json in
            for id in entitlements.keys.sorted() {
                guard let state = entitlements[id] else { continue }
                json.key(id)
                json.object { json in
                    json.key("active")
                    json.value(state.active)
                    json.key("environment")
                    json.value(state.environment?.rawValue)
                    json.key("expires_at")
                    json.value(state.expiresAt)
                    json.key("product_id")
                    json.value(state.productID)
                    json.key("source")
                    json.value(state.source?.rawValue)
                }
            }
        }
    }
}

/// Entitlements by id, as the subscriber JSON's `entitlements` shows them (also in the body
/// of an `entitlement_changed` webhook event).
public struct EntitlementMapDocument: ContractJSONWritable {
    let entitlements: [String: EntitlementState]

    /// The document of `entitlements`.
    public init(_ entitlements: [String: EntitlementState]) {
        self.entitlements = entitlements
    }

    public func write(to writer: inout ContractJSONWriter) {
        EntitlementsDocument.write(entitlements, to: &writer)
    }
}

/// One entry of the subscriber JSON's `purchases` (also the body of a purchase's webhook event).
public struct PurchaseDocument: ContractJSONWritable {
    let purchase: PurchaseSummary
    /// False: a webhook event's purchase, whose `price` and `currency` are Apple's alone and
    /// which has no `price_source` or `proceeds`.
    let showsMoney: Bool
    let money: PurchaseMoney?

    /// The document of `purchase` as a webhook event carries it.
    public init(purchase: PurchaseSummary) {
        self.purchase = purchase
        self.showsMoney = false
        self.money = nil
    }

    /// The document of `purchase` as the subscriber JSON shows it, with its price and
    /// estimated proceeds (nil: unpriced).
    public init(purchase: PurchaseSummary, money: PurchaseMoney?) {
        self.purchase = purchase
        self.showsMoney = true
        self.money = money
    }

    public func write(to writer: inout ContractJSONWriter) {
        let fact = purchase.fact
        writer.object { json in
            json.key("currency")
            json.value(showsMoney ? money?.currency : fact.currency)
            json.key("environment")
            json.value(fact.environment.rawValue)
            json.key("expires_at")
            json.value(purchase.expiresAt)
            json.key("original_transaction_id")
            json.value(fact.originalTransactionID)
            if showsMoney {
                json.priceAndProceeds(money)
            } else {
                json.key("price")
                json.value(purchase.price)
            }
            json.key("product_id")
            json.value(fact.productID)
            json.key("purchase_date")
            json.value(fact.purchaseDate)
            json.key("quantity")
            json.value(fact.quantity ?? 1)
            json.key("revocation_reason")
            json.value(fact.isRevoked ? fact.cancellationReason : nil)
            json.key("revocation_type")
            json.value(fact.isRevoked ? fact.revocationType : nil)
            json.key("revoked_at")
            json.value(fact.isRevoked ? fact.cancellationDate : nil)
            json.key("storefront")
            json.value(fact.storefront)
            json.key("transaction_id")
            json.value(fact.transactionID)
            json.key("type")
            json.value(purchase.type?.rawValue)
        }
    }
}

extension EligibilityDocument: ContractJSONWritable {
    public func write(to writer: inout ContractJSONWriter) {
        writer.object { json in
            json.key("eligibility")
            json.stringMap(eligibility)
            if let signatures {
                json.key("signatures")
                json.stringMap(signatures)
            }
        }
    }
}

extension ContractJSONWriter {
    /// `price`, `price_source` and `proceeds` of `money` (all `null` when unpriced): amounts
    /// as decimal text in units (``PurchaseMoney/text(_:)``), as the purchases' `price` always was.
    mutating func priceAndProceeds(_ money: PurchaseMoney?) {
        key("price")
        value(money.map { PurchaseMoney.text($0.price) })
        key("price_source")
        value(money?.source.rawValue)
        key("proceeds")
        value(money.map { PurchaseMoney.text($0.proceeds) })
    }
}
