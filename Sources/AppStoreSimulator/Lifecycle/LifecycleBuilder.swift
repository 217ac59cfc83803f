import Foundation

/// Plays one customer's life forward in scenario time, recording the state after every
/// event and the v1 notification Apple would send for it.
struct LifecycleBuilder {
    let catalog: ProductCatalog
    let clock: PeriodClock
    var ids: IDAllocator
    private(set) var now: Date
    private(set) var state = CustomerState()
    private(set) var events: [LifecycleEvent] = []
    /// The group the scenario acts on.
    private(set) var group = ""
    /// Pay-as-you-go offer periods still to come after the current one.
    var introPeriodsLeft = 0
    /// Automatic renewals so far (sandbox stops after a few).
    var autoRenewals = 0
    /// The customer is a family member: every period is `FAMILY_SHARED`.
    var familyShared = false
    /// Where the customer shops: what every purchase costs, in which currency.
    let storefront: String

    init(catalog: ProductCatalog, clock: PeriodClock, ids: IDAllocator, start: Date, storefront: String = SimStorefront.usa.code) {
        self.catalog = catalog
        self.clock = clock
        self.ids = ids
        self.now = start
        self.storefront = storefront
    }

    /// The subscription the scenario acts on.
    var current: SimSubscription {
        state.subscription(inGroup: group)!
    }

    /// The product of the current period.
    var currentProduct: SimProduct {
        catalog.product(current.latest.productID)!
    }

    /// Moves the clock forward (never back).
    mutating func advance(to date: Date) {
        now = max(now, date)
    }

    /// A moment `fraction` of the way through the current period, never before now.
    func momentInCurrentPeriod(_ fraction: Double) -> Date {
        let latest = current.latest
        let length = latest.expiresDate.timeIntervalSince(latest.purchaseDate)
        return max(now, latest.purchaseDate.addingTimeInterval((length * fraction).rounded()))
    }

    /// Changes the current subscription.
    mutating func modify(_ change: (inout SimSubscription) -> Void) {
        let index = state.index(ofGroup: group)!
        change(&state.subscriptions[index])
    }

    /// Changes the one-time purchases.
    mutating func modifyPurchases(_ change: (inout [SimPurchase]) -> Void) {
        change(&state.purchases)
    }

    /// Records the state as it is now, with what changed (about `purchase`, for one-time purchases).
    mutating func record(_ change: LifecycleChange, purchase: String? = nil) {
        events.append(LifecycleEvent(date: now, change: change, groupID: group, purchaseID: purchase, state: state))
    }

    /// A new period of `product` from `start`, using its offer when `intro` says so.
    mutating func makePeriod(
        _ product: SimProduct,
        from start: Date,
        originalTransactionID: String?,
        originalPurchaseDate: Date?,
        intro: IntroOffer?
    ) -> SimTransaction {
        let transactionID = ids.nextTransactionID()
        let end: Date
        switch intro?.paymentMode {
        case .freeTrial?, .payUpFront?:
            end = clock.end(of: intro!.period, from: start, count: intro!.periods)
        case .payAsYouGo?:
            end = clock.end(of: intro!.period, from: start)
        case nil:
            end = clock.end(of: product.period, from: start)
        }
        var period = SimTransaction(
            transactionID: transactionID,
            originalTransactionID: originalTransactionID ?? transactionID,
            productID: product.productID,
            groupID: product.groupID,
            purchaseDate: start,
            originalPurchaseDate: originalPurchaseDate ?? start,
            expiresDate: end,
            webOrderLineItemID: ids.nextLineItemID(),
            isTrialPeriod: intro?.paymentMode == .freeTrial,
            isInIntroOfferPeriod: intro != nil && intro?.paymentMode != .freeTrial,
            storefront: storefront,
            charge: intro == nil ? product.charge(in: storefront) : product.introCharge(in: storefront)
        )
        period.isFamilyShared = familyShared
        return period
    }

    /// Buys `product` now: `INITIAL_BUY` for a first purchase in its group, else
    /// `INTERACTIVE_RENEWAL` (a resubscribe keeps the original transaction id). Apple applies
    /// the introductory offer by itself whenever the customer is eligible, unless the customer
    /// redeems `redeemed` (`OFFER_REDEEMED` in v2) or gets the product through Family Sharing.
    mutating func purchase(_ product: SimProduct, redeeming redeemed: SimOffer? = nil, familyShared: Bool = false) {
        group = product.groupID
        self.familyShared = familyShared
        let eligible = state.eligibility(for: product, at: now) == .eligible
        let offer = eligible && redeemed == nil && !familyShared ? product.introOffer : nil
        introPeriodsLeft = offer?.paymentMode == .payAsYouGo ? offer!.periods - 1 : 0
        let existing = state.subscription(inGroup: product.groupID)
        var period = makePeriod(
            product, from: now,
            originalTransactionID: existing?.originalTransactionID,
            originalPurchaseDate: existing?.latest.originalPurchaseDate,
            intro: offer
        )
        if let redeemed {
            period.offer = redeemed
            period.charge = SimCharge(milliunits: redeemed.priceMilliunits, currency: period.charge.currency)
        }
        let renewal = SimRenewalInfo(
            originalTransactionID: period.originalTransactionID,
            productID: product.productID,
            autoRenewProductID: product.productID,
            autoRenewStatus: true,
            autoRenewStatusChangeDate: now
        )
        if let index = state.index(ofGroup: product.groupID) {
            state.subscriptions[index].transactions.append(period)
            state.subscriptions[index].renewal = renewal
            record(redeemed == nil ? .resubscribe : .offerRedeemed(resubscribe: true))
        } else {
            state.subscriptions.append(SimSubscription(groupID: product.groupID, transactions: [period], renewal: renewal))
            record(redeemed == nil ? .initialBuy : .offerRedeemed(resubscribe: false))
        }
    }

    /// Renews at the end of the current period into the auto-renew product (`DID_RENEW`).
    /// In sandbox, auto-renew turns itself off after Apple's renewal limit.
    mutating func renew() {
        guard current.renewal.autoRenewStatus, !current.renewal.isInBillingRetryPeriod else { return }
        let latest = current.latest
        advance(to: latest.expiresDate)
        let product = catalog.product(current.renewal.autoRenewProductID)!
        var intro: IntroOffer?
        if introPeriodsLeft > 0, product.productID == latest.productID, let offer = product.introOffer {
            intro = offer
            introPeriodsLeft -= 1
        } else {
            introPeriodsLeft = 0
        }
        var period = makePeriod(
            product, from: latest.expiresDate,
            originalTransactionID: latest.originalTransactionID,
            originalPurchaseDate: latest.originalPurchaseDate,
            intro: intro
        )
        period.isRenewal = true
        autoRenewals += 1
        let capped = clock.environment == .sandbox && autoRenewals >= clock.timing.sandboxMaxRenewals
        let moment = now
        modify {
            $0.transactions.append(period)
            $0.renewal.productID = product.productID
            if capped {
                $0.renewal.autoRenewStatus = false
                $0.renewal.autoRenewStatusChangeDate = moment
            }
        }
        record(.renewal)
    }

    /// Renews `count` times, or until auto-renew is off.
    mutating func renew(times count: Int) {
        for _ in 0..<max(0, count) where current.renewal.autoRenewStatus {
            renew()
        }
    }
}
