import AppStore
import ContractDocuments
import Foundation
import Store
import Subscriptions
import UseCases

/// The customer page's values, made from the customer's profile and a page of the timeline.
struct CustomerContent {
    struct EntitlementRow {
        let id: String
        let active: Bool
        let activeText: String
        let source: String
        let product: String
        let until: String
        let environment: String
    }

    struct SubscriptionRow {
        let originalTransactionID: String
        let environment: String
        let product: String
        let status: String
        let why: String
        let expires: String
        let autoRenew: String
        let price: String
        let proceeds: String
        /// `monthly through a commitment until …`, or empty when billed up front.
        let commitment: String?
        let group: String
        let href: String
    }

    struct PurchaseRow {
        let transactionID: String
        let originalTransactionID: String
        let product: String
        let type: String
        let bought: String
        let ends: String
        let revoked: String
        let price: String
        let proceeds: String
        let storefront: String
        let environment: String
        let href: String
    }

    /// Another user linked to one of this customer's purchases.
    struct LinkedUser {
        let appUserID: String
        let href: String
        let purchase: String
    }

    struct EligibilityRow {
        let group: String
        let product: String
        let answer: String
    }

    struct GrantRow {
        let id: String
        let entitlement: String
        let until: String
        let reason: String
        let created: String
        let live: Bool
        let revokedAt: String
    }

    let appUserID: String
    /// The id as a path segment, for the forms' actions.
    let path: String
    let entitledGroups: String
    let appleAccounts: String
    let entitlements: [EntitlementRow]
    let subscriptions: [SubscriptionRow]
    let purchases: [PurchaseRow]
    let eligibility: [EligibilityRow]
    let grants: [GrantRow]
    let linkedUsers: [LinkedUser]
    let entitlementIDs: [String]
    let timeline: TimelineContent

    /// The page of `profile`; `linkedUsers` names, by original transaction id, the other users
    /// each purchase is linked to.
    init(profile: CustomerProfile.View, linkedUsers: [String: [String]], timeline: TimelinePage, olderBase: String, now: Date) {
        let document = profile.document
        appUserID = profile.appUserID
        path = PathText.segment(profile.appUserID)
        entitledGroups = document.entitledGroups.isEmpty ? "none" : document.entitledGroups.joined(separator: ", ")
        appleAccounts = "\(document.appleAccounts)"
        entitlements = document.entitlements.keys.sorted().compactMap { id in
            guard let state = document.entitlements[id] else { return nil }
            return EntitlementRow(
                id: id, active: state.active, activeText: state.active ? "yes" : "no", source: state.source?.rawValue ?? "–",
                product: state.productID ?? "–",
                until: state.active ? (state.expiresAt.map { ConsoleTime.minute($0) } ?? "for good") : "–",
                environment: state.environment?.rawValue ?? "–")
        }
        subscriptions = document.subscriptions.map { subscription in
            let snapshot = subscription.view.snapshot
            let money = subscription.latestTransaction.flatMap { subscription.money(of: $0.transactionID) }
            return SubscriptionRow(
                originalTransactionID: snapshot.originalTransactionID, environment: snapshot.environment.rawValue,
                product: snapshot.productID, status: snapshot.status.rawValue,
                why: profile.stories[snapshot.originalTransactionID].map { StatusExplanation.sentence($0, time: ConsoleTime.minute) }
                    ?? "–",
                expires: ConsoleTime.minute(snapshot.expiresAt), autoRenew: snapshot.autoRenew.map { $0 ? "on" : "off" } ?? "–",
                price: MoneyText.price(money), proceeds: MoneyText.proceeds(money),
                commitment: subscription.latestTransaction.flatMap {
                    $0.isMonthlyCommitment ? "billed monthly through a commitment until " + ConsoleTime.minute($0.commitmentExpiresAt) : nil
                },
                group: snapshot.subscriptionGroupID ?? "–",
                href: ConsoleLinks.purchase(
                    originalTransactionID: snapshot.originalTransactionID, environment: snapshot.environment.rawValue))
        }
        purchases = document.purchases.map { purchase in
            let fact = purchase.fact
            let money = document.money(ofPurchase: fact)
            return PurchaseRow(
                transactionID: fact.transactionID, originalTransactionID: fact.originalTransactionID, product: fact.productID,
                type: purchase.type?.rawValue ?? "–", bought: ConsoleTime.minute(fact.purchaseDate),
                ends: ConsoleTime.minute(purchase.expiresAt),
                revoked: fact.isRevoked
                    ? ConsoleTime.minute(fact.cancellationDate) + (fact.revocationType.map { " (\($0))" } ?? "") : "–",
                price: MoneyText.price(money), proceeds: MoneyText.proceeds(money), storefront: fact.storefront ?? "–",
                environment: fact.environment.rawValue,
                href: ConsoleLinks.purchase(originalTransactionID: fact.originalTransactionID, environment: fact.environment.rawValue))
        }
        eligibility = profile.eligibility.map { EligibilityRow(group: $0.groupID, product: $0.productID, answer: $0.answer.rawValue) }
        grants = profile.grants.map { grant in
            GrantRow(
                id: "\(grant.id)", entitlement: grant.entitlement, until: grant.expiresAt.map { ConsoleTime.minute($0) } ?? "for good",
                reason: grant.reason, created: ConsoleTime.minute(grant.createdAt),
                live: grant.revokedAt == nil && (grant.expiresAt.map { $0 > now } ?? true),
                revokedAt: grant.revokedAt.map { "revoked " + ConsoleTime.minute($0) } ?? "expired")
        }
        self.linkedUsers = linkedUsers.keys.sorted().flatMap { purchase in
            (linkedUsers[purchase] ?? []).map { LinkedUser(appUserID: $0, href: ConsoleLinks.customer($0), purchase: purchase) }
        }
        entitlementIDs = profile.entitlementIDs
        self.timeline = TimelineContent(page: timeline, olderBase: olderBase)
    }
}

/// A page of a timeline as rows, with the link to the older items.
struct TimelineContent {
    struct Row {
        let at: String
        let kind: String
        let title: String
        let detail: String?
        let href: String?
    }

    let rows: [Row]
    /// The link to the next (older) page; nil on the last.
    let older: String?

    init(page: TimelinePage, olderBase: String) {
        rows = page.items.map { item in
            Row(
                at: ConsoleTime.minute(item.at), kind: Self.kindText(item.kind), title: item.title, detail: item.detail,
                href: ConsoleLinks.href(item.reference))
        }
        older = page.next.map { olderBase + "?before=" + PathText.query($0.text) + "#timeline" }
    }

    private static func kindText(_ kind: TimelineItem.Kind) -> String {
        switch kind {
        case .transaction: "transaction"
        case .renewal: "renewal info"
        case .notification: "notification"
        case .statusChange: "status"
        case .webhookEvent: "webhook"
        case .audit: "by hand"
        }
    }
}

/// Where each thing's page is.
enum ConsoleLinks {
    static func customer(_ appUserID: String) -> String {
        "/console/customers/" + PathText.segment(appUserID)
    }

    static func purchase(originalTransactionID: String, environment: String) -> String {
        "/console/purchases/" + PathText.segment(environment) + "/" + PathText.segment(originalTransactionID)
    }

    static func href(_ reference: TimelineItem.Reference) -> String? {
        switch reference {
        case .notification(let id): "/console/notifications/\(id)"
        case .webhookEvent(let id): "/console/webhooks/\(id)"
        case .subscription(let id, let environment): purchase(originalTransactionID: id, environment: environment)
        case .transaction(let id, _): "/console/customers?q=" + PathText.query(id)
        case .audit: nil
        }
    }
}

/// Prices and proceeds as the console shows them: `9.99 EUR (apple)`, `7.14 EUR`, `–`.
enum MoneyText {
    static func price(_ money: PurchaseMoney?) -> String {
        money?.priceText ?? "–"
    }

    static func proceeds(_ money: PurchaseMoney?) -> String {
        money?.proceedsText ?? "–"
    }
}
