import Foundation

/// What subscriptiond's reports should say about the simulated customers (DESIGN.md, "Money
/// and reports"), worked out by the simulator on its own: Production only; at the end of `day`,
/// the auto-renewable subscriptions active or in a grace period and not in a free trial, those
/// in a free trial, and their MRR; over `revenueFrom` through `revenueTo` the revenue.
///
/// Amounts are in the report currency of the rates: MRR converts at `day`'s rate, revenue at
/// each purchase's day. The past is described as known now: a refund stands from its revocation.
public struct MoneyTruth: Sendable, Hashable {
    /// One customer as the arithmetic sees them: where they buy and everything they own.
    public struct Customer: Sendable, Hashable {
        /// Only `production` counts.
        public var environment: SimEnvironment
        /// What the customer owns, as known now.
        public var state: CustomerState

        /// A customer from its parts.
        public init(environment: SimEnvironment, state: CustomerState) {
            self.environment = environment
            self.state = state
        }
    }

    /// The day whose end the counts and MRR are at (midnight UTC).
    public var day: Date
    /// The report currency.
    public var currency: String
    /// Paid subscriptions active or in a grace period at the end of `day`.
    public var activeSubscriptions: Int
    /// Subscriptions in a free trial at the end of `day`.
    public var activeTrials: Int
    /// Σ of the active subscriptions' current period price normalised to a month.
    public var mrr: Decimal
    /// The first day of the revenue (midnight UTC).
    public var revenueFrom: Date
    /// The last day of the revenue, included (midnight UTC).
    public var revenueTo: Date
    /// Σ of the paid transactions bought from `revenueFrom` through `revenueTo`, less refunds.
    public var revenue: Decimal
    /// Currencies with no rate on a day they were needed: those amounts are left out.
    public var missingRates: [String]

    /// The numbers of `customers` selling `catalog`, converted with `rates`.
    public init(
        customers: [Customer], catalog: ProductCatalog, day: Date, revenueFrom: Date, revenueTo: Date, rates: SimExchangeRates
    ) {
        self.day = SimDay.start(of: day)
        self.revenueFrom = SimDay.start(of: revenueFrom)
        self.revenueTo = SimDay.start(of: revenueTo)
        currency = rates.reportCurrency
        let end = self.day.addingTimeInterval(86_400)
        let revenueRange = self.revenueFrom..<self.revenueTo.addingTimeInterval(86_400)
        var actives = 0
        var trials = 0
        var mrr = Decimal(0)
        var revenue = Decimal(0)
        var missing = Set<String>()
        func convert(_ milliunits: Int, _ currency: String, share: Decimal, on day: Date) -> Decimal {
            guard let amount = rates.convert(Decimal(milliunits) / 1_000 * share, currency, on: day) else {
                missing.insert(currency)
                return 0
            }
            return amount
        }
        for customer in customers where customer.environment == .production {
            for subscription in customer.state.subscriptions {
                switch Self.standing(of: subscription, at: end) {
                case .paid(let period)?:
                    actives += 1
                    guard let billed = Self.billingPeriod(of: period, catalog: catalog) else { continue }
                    mrr += billed.perMonth(convert(period.charge.milliunits, period.charge.currency, share: 1, on: self.day)) ?? 0
                case .trial?: trials += 1
                case nil: break
                }
                for period in subscription.transactions where !period.isTrialPeriod && revenueRange.contains(period.purchaseDate) {
                    revenue += convert(period.charge.milliunits, period.charge.currency, share: period.keptShare, on: period.purchaseDate)
                }
            }
            for purchase in customer.state.purchases where revenueRange.contains(purchase.purchaseDate) {
                revenue += convert(purchase.priceMilliunits, purchase.currency, share: purchase.keptShare, on: purchase.purchaseDate)
            }
        }
        activeSubscriptions = actives
        activeTrials = trials
        self.mrr = mrr
        self.revenue = revenue
        missingRates = missing.sorted()
    }

    /// How a subscription counts at one moment.
    enum Standing: Equatable {
        /// Active or in a grace period, paying for `period` (in grace, the last period).
        case paid(SimTransaction)
        /// Active in a free trial.
        case trial
    }

    /// How `subscription` counts at `instant`, as known now (periods bought by then, a refund
    /// from its revocation); `nil` when it does not (expired, in billing retry, revoked, not yet bought).
    static func standing(of subscription: SimSubscription, at instant: Date) -> Standing? {
        var known = subscription
        known.transactions = subscription.transactions.filter { $0.purchaseDate <= instant }
        guard let current = known.transactions.last else { return nil }
        switch known.status(at: instant) {
        case .active: return current.isTrialPeriod ? .trial : .paid(current)
        // A grace period is no free trial any more, even after one: it counts at its last price.
        case .gracePeriod: return .paid(current)
        case .billingRetry, .expired, .revoked: return nil
        }
    }

    /// The time one payment of `period` covers: a pay-up-front offer all its periods, a
    /// pay-as-you-go payment one offer period, anything else one period of the product.
    static func billingPeriod(of period: SimTransaction, catalog: ProductCatalog) -> ISODuration? {
        guard let product = catalog.product(period.productID) else { return nil }
        if period.isInIntroOfferPeriod, period.offer == nil, let offer = product.introOffer {
            return SignedTransactionRenderer.offerPeriod(offer)
        }
        return product.period
    }
}

extension ISODuration {
    /// How many of this period make a month, for MRR: P1D ×30, P1W ×4, P2W ×2, P1M ×1,
    /// P3M ×⅓, P6M ×⅙, P1Y ×1⁄12 (a month is 30 days or 4 weeks); `nil` for a period that
    /// mixes units.
    public var monthlyFactor: Decimal? {
        switch (years, months, weeks, days, timeSeconds) {
        case (let y, 0, 0, 0, 0) where y > 0: 1 / (12 * Decimal(y))
        case (0, let m, 0, 0, 0) where m > 0: 1 / Decimal(m)
        case (0, 0, let w, 0, 0) where w > 0: 4 / Decimal(w)
        case (0, 0, 0, let d, 0) where d > 0: 30 / Decimal(d)
        default: nil
        }
    }

    /// `amount` paid for this period, per month (divided rather than multiplied by
    /// `monthlyFactor` where that is exact: 10.50 for P3M is 3.50 a month, not 3.4999…).
    public func perMonth(_ amount: Decimal) -> Decimal? {
        switch (years, months, weeks, days, timeSeconds) {
        case (let y, 0, 0, 0, 0) where y > 0: amount / (12 * Decimal(y))
        case (0, let m, 0, 0, 0) where m > 0: amount / Decimal(m)
        case (0, 0, let w, 0, 0) where w > 0: amount * 4 / Decimal(w)
        case (0, 0, 0, let d, 0) where d > 0: amount * 30 / Decimal(d)
        default: nil
        }
    }
}

extension SimTransaction {
    /// The share of the price Apple kept: all of it, none after a full refund (or a revoked
    /// family member's access), `1 - revocationPercentage` after a prorated one.
    var keptShare: Decimal {
        guard isRefunded else { return 1 }
        return refundPercentage.map { 1 - Decimal($0) / 100_000 } ?? 0
    }
}

extension SimPurchase {
    /// The share of the price Apple kept: all of it, none after a full refund,
    /// `1 - revocationPercentage` after a prorated one.
    var keptShare: Decimal {
        guard cancellationDate != nil else { return 1 }
        guard proratedRefund else { return 0 }
        return refundPercentage.map { 1 - Decimal($0) / 100_000 } ?? 0
    }
}
