import AppStore
import Foundation
import Subscriptions
import Testing

/// ``FactApplication``: the plan applying facts writes, decided without I/O from what is
/// stored, the incoming facts, the app's policy and the time.
@Suite("Applying facts: the pure plan")
struct FactApplicationTests {
    static let now = day(20)

    static func facts(_ transactions: [TransactionFact], renewals: [RenewalFact] = [], version: String? = nil) -> ReceiptFacts {
        ReceiptFacts(
            environment: .production, bundleID: "com.example.app", transactions: transactions, renewals: renewals, latestReceipt: nil,
            originalApplicationVersion: version)
    }

    static func context(
        claimant: String? = nil, policy: LinkPolicy = .transfer, kinds: Set<LifecycleEvent.Kind> = Set(LifecycleEvent.Kind.allCases)
    ) -> FactApplication.Context {
        FactApplication.Context(claimant: claimant, linkPolicy: policy, webhookEvents: kinds, receiptObservedAt: now, now: now)
    }

    static func stored(_ transactions: [TransactionFact], renewal: RenewalFact? = nil, row: SubscriptionMoment? = nil) -> StoredPurchases {
        var stored = StoredPurchases()
        for fact in transactions { stored.add(fact) }
        if let renewal { stored.add(renewal) }
        if let row { stored.subscriptions["1000"] = row }
        return stored
    }

    /// The stored row of the active period 1000 (day 10 to 40), auto-renew on.
    static let activeRow = SubscriptionMoment(
        status: .active, productID: "pro.monthly", expiresAt: day(40), autoRenew: nil, autoRenewProductID: nil,
        latestTransactionID: "1000", expirationIntent: nil, revocationReason: nil)

    @Test("a new subscription: its transaction is written, its row is created active, subscription_created, a status change")
    func newSubscription() throws {
        let plan = try FactApplication.plan(
            stored: StoredPurchases(), incoming: Self.facts([period("1000", from: 10, to: 40)]), context: Self.context())
        #expect(plan.transactions.map(\.transactionID) == ["1000"])
        let row = try #require(plan.subscriptions.first)
        #expect(row.snapshot.status == .active && row.previousStatus == nil && row.statusChanged)
        #expect(row.events.map(\.kind) == [.subscriptionCreated])
        #expect(row.dueAt == day(40), "the sweep's time: the period's end")
        #expect(
            plan.statusChanges == [
                StatusChange(originalTransactionID: "1000", environment: .production, oldStatus: nil, newStatus: .active)
            ])
        #expect(plan.outbox.map(\.events) == [[LifecycleEvent(.subscriptionCreated)]])
        #expect(plan.links.isEmpty, "no claimant, no token: nobody is linked")
        #expect(plan.review?.originalTransactionIDs == ["1000"])
    }

    @Test("merge order: a refund then the purchase, or the purchase then the refund, store the refund; a stale statement writes nothing")
    func mergeOrder() throws {
        let purchase = period("1000", from: 10, to: 40)
        let refund = period("1000", from: 10, to: 40, cancelledOn: 15, reason: "0")
        let stale = try FactApplication.plan(stored: Self.stored([refund]), incoming: Self.facts([purchase]), context: Self.context())
        #expect(stale.transactions.isEmpty && stale.restatements.isEmpty, "facts never regress")
        let refunded = try FactApplication.plan(stored: Self.stored([purchase]), incoming: Self.facts([refund]), context: Self.context())
        #expect(refunded.transactions.map(\.cancellationDate) == [day(15)])
        #expect(refunded.subscriptions.first?.snapshot.status == .revoked)
        #expect(stale.subscriptions.first?.snapshot.status == .revoked)
    }

    @Test("a statement that only restates a stored transaction later is one restatement, not an upsert")
    func restatement() throws {
        var stated = period("1000", from: 10, to: 40)
        stated.statedAt = day(11)
        var later = stated
        later.statedAt = day(12)
        let plan = try FactApplication.plan(stored: Self.stored([stated]), incoming: Self.facts([later]), context: Self.context())
        #expect(plan.transactions.isEmpty)
        #expect(plan.restatements == [ApplyPlan.Restatement(statedAt: day(12), transactionIDs: ["1000"])])
    }

    @Test("renewal info replaces the stored one only when newer; the status follows the facts against the stored row")
    func renewalsAndStatus() throws {
        let transactions = [period("1000", from: 10, to: 40)]
        let stored = Self.stored(
            transactions, renewal: renewal(autoRenew: false, observedOn: 12),
            row: SubscriptionMoment(
                status: .active, productID: "pro.monthly", expiresAt: day(40), autoRenew: false, autoRenewProductID: "pro.monthly",
                latestTransactionID: "1000", expirationIntent: nil, revocationReason: nil))
        let older = try FactApplication.plan(
            stored: stored, incoming: Self.facts([], renewals: [renewal(autoRenew: true, observedOn: 11)]), context: Self.context())
        #expect(older.renewals.isEmpty)
        #expect(older.subscriptions.first?.events.isEmpty == true, "nothing changed")
        #expect(older.outbox.isEmpty && older.review == nil)
        let newer = try FactApplication.plan(
            stored: stored, incoming: Self.facts([], renewals: [renewal(autoRenew: true, observedOn: 13)]), context: Self.context())
        #expect(newer.renewals.count == 1)
        #expect(newer.subscriptions.first?.events.map(\.kind) == [.autoRenewEnabled])
        #expect(newer.subscriptions.first?.statusChanged == false)
        #expect(newer.statusChanges.isEmpty)
    }

    @Test("ownership: a claimant under transfer takes the purchase (user_unlinked, both reviewed); under refuse the claim throws")
    func ownership() throws {
        var stored = Self.stored([period("1000", from: 10, to: 40)], row: Self.activeRow)
        stored.owners["1000"] = ["a"]
        let incoming = Self.facts([period("1000", from: 10, to: 40)])
        let plan = try FactApplication.plan(stored: stored, incoming: incoming, context: Self.context(claimant: "b"))
        #expect(
            plan.links == [ApplyPlan.LinkWrite(originalTransactionID: "1000", change: .init(link: ["b"], unlink: ["a"]), confirmed: nil)])
        #expect(plan.outbox.first?.events.map(\.kind) == [.userLinked, .userUnlinked])
        #expect(plan.outbox.first?.unlinkedUsers == ["a"])
        #expect(plan.review == ApplyPlan.Review(originalTransactionIDs: ["1000"], alsoUsers: ["a"]))
        #expect(throws: PurchaseOwnership.Refusal.self) {
            try FactApplication.plan(stored: stored, incoming: incoming, context: Self.context(claimant: "b", policy: .refuse))
        }
        // The owner proving it again changes nothing, but confirms the link.
        let again = try FactApplication.plan(stored: stored, incoming: incoming, context: Self.context(claimant: "a"))
        #expect(again.links == [ApplyPlan.LinkWrite(originalTransactionID: "1000", change: .init(), confirmed: "a")])
        #expect(again.outbox.isEmpty)
    }

    @Test(
        "the newest token among stored and incoming transactions decides: an issued token refuses another claimant, a hint links its user")
    func tokens() throws {
        var first = period("1000", from: 10, to: 40)
        first.appAccountToken = "00000000-0000-4000-8000-000000000001"
        var renewalPeriod = period("1001", original: "1000", from: 40, to: 70)
        renewalPeriod.appAccountToken = "00000000-0000-4000-8000-000000000002"
        var stored = Self.stored([first])
        stored.owners["1000"] = []
        stored.tokens["00000000-0000-4000-8000-000000000002"] = .issued(to: "owner")
        #expect(throws: PurchaseOwnership.Refusal.self) {
            try FactApplication.plan(stored: stored, incoming: Self.facts([renewalPeriod]), context: Self.context(claimant: "thief"))
        }
        let linked = try FactApplication.plan(stored: stored, incoming: Self.facts([renewalPeriod]), context: Self.context())
        #expect(linked.links.map(\.change) == [.init(link: ["owner"])])
        // Without the newer transaction, the older token is a hint naming nobody here.
        let hinted = try FactApplication.plan(stored: stored, incoming: Self.facts([first]), context: Self.context())
        #expect(hinted.links.map { $0.change.linkedByHint } == [["00000000-0000-4000-8000-000000000001"]])
        var forgotten = stored
        forgotten.tokens["00000000-0000-4000-8000-000000000002"] = .forgotten
        #expect(try FactApplication.plan(stored: forgotten, incoming: Self.facts([renewalPeriod]), context: Self.context()).links.isEmpty)
    }

    @Test(
        "facts without a claimant or a token leave links alone; only selected event kinds are recorded; no review without entitlement_changed"
    )
    func selection() throws {
        let plan = try FactApplication.plan(
            stored: StoredPurchases(), incoming: Self.facts([period("1000", from: 10, to: 40)]),
            context: Self.context(kinds: [.renewed]))
        #expect(!FactApplication.mayChangeOwners(of: "1000", facts: Self.facts([period("1000", from: 10, to: 40)]), claimant: nil))
        #expect(plan.outbox.isEmpty, "subscription_created is not selected")
        #expect(plan.review == nil)
        #expect(plan.subscriptions.count == 1, "the row is written whatever the selection")
    }

    @Test("one-time purchases: purchase_created, then purchase_revoked on a refund; a receipt's version is recorded for its claimant only")
    func oneTimePurchases() throws {
        var lifetime = TransactionFact(
            transactionID: "2000", originalTransactionID: "2000", productID: "pro.lifetime", bundleID: "com.example.app",
            environment: .production, purchaseDate: day(5), productType: .nonConsumable)
        let created = try FactApplication.plan(
            stored: StoredPurchases(), incoming: Self.facts([lifetime], version: "1.0"), context: Self.context(claimant: "buyer"))
        #expect(created.subscriptions.isEmpty)
        #expect(created.outbox.map(\.events) == [[LifecycleEvent(.purchaseCreated)]])
        #expect(created.links.map(\.change) == [.init(link: ["buyer"])])
        #expect(created.originalVersion?.appUserID == "buyer")
        let stored = Self.stored([lifetime])
        lifetime.cancellationDate = day(6)
        lifetime.cancellationReason = "0"
        let revoked = try FactApplication.plan(stored: stored, incoming: Self.facts([lifetime], version: "1.0"), context: Self.context())
        #expect(revoked.outbox.first?.events.map(\.kind) == [.purchaseRevoked])
        #expect(revoked.originalVersion == nil, "no claimant: nobody proved the version")
    }
}
