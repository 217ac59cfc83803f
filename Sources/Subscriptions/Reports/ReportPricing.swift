import Foundation

/// What the reports need to know about money beyond the facts: what each transaction cost
/// (Apple's price, or the catalog's for receipts that do not say), each product's billing
/// period, exchange rates, tax rates and the apps' Small Business Program periods.
public struct ReportPricing: Sendable {
    /// A transaction's price and its currency; nil when neither Apple nor the catalog says.
    public let price: @Sendable (TransactionFact) -> (amount: Decimal, currency: String)?
    /// How long the period a transaction bought lasts (see ``period(of:catalog:)``).
    public let period: @Sendable (TransactionFact) -> ISO8601Duration?
    /// `amount` of `currency` in the report currency on `day` (the newest rate on or before
    /// it); nil when there is no such rate.
    public let convert: @Sendable (_ amount: Decimal, _ currency: String, _ day: Date) -> Decimal?
    public let taxRates: TaxRates
    /// An app's Small Business Program membership.
    public let smallBusiness: @Sendable (String) -> SmallBusinessProgram

    public init(
        price: @escaping @Sendable (TransactionFact) -> (amount: Decimal, currency: String)?,
        period: @escaping @Sendable (TransactionFact) -> ISO8601Duration?,
        convert: @escaping @Sendable (Decimal, String, Date) -> Decimal?, taxRates: TaxRates = TaxRates(),
        smallBusiness: @escaping @Sendable (String) -> SmallBusinessProgram = { _ in SmallBusinessProgram() }
    ) {
        self.price = price
        self.period = period
        self.convert = convert
        self.taxRates = taxRates
        self.smallBusiness = smallBusiness
    }

    /// The pricing of `catalog`: Apple's prices else the catalog's, the periods they bought,
    /// `taxRates` and each app's `smallBusiness` periods; amounts convert with `convert`
    /// (none by default: kept in their currency).
    public init(
        catalog: ProductCatalog, taxRates: TaxRates, smallBusiness: @escaping @Sendable (String) -> SmallBusinessProgram,
        convert: @escaping @Sendable (Decimal, String, Date) -> Decimal? = { _, _, _ in nil }
    ) {
        self.init(
            price: { ReportPricing.price(of: $0, catalog: catalog).map { ($0.amount, $0.currency) } },
            period: { ReportPricing.period(of: $0, catalog: catalog) }, convert: convert, taxRates: taxRates,
            smallBusiness: smallBusiness)
    }

    /// Where a purchase's price comes from (`price_source`).
    public enum PriceSource: String, Sendable {
        /// Apple stated it (a v2 transaction's `price`).
        case apple
        /// The catalog's price for the storefront, or its default (v1 receipts say nothing).
        case catalog
    }

    /// A transaction's price and where it comes from: Apple's, else the catalog's for its
    /// storefront, else nil.
    ///
    /// Without Apple's word a free trial cost nothing (in the currency the catalog lists), and
    /// a paid introductory period the product's introductory price, which the catalog gives in
    /// its default currency only: a storefront with a price of its own leaves such a period
    /// unpriced rather than charged the regular price.
    public static func price(
        of transaction: TransactionFact, catalog: ProductCatalog
    ) -> (
        amount: Decimal, currency: String, source: PriceSource
    )? {
        if let apple = applePrice(transaction) { return (apple.amount, apple.currency, .apple) }
        guard let product = catalog.product(transaction.productID), let listed = product.price(in: transaction.storefront) else {
            return nil
        }
        if transaction.isTrialPeriod { return (0, listed.currency, .catalog) }
        if transaction.isInIntroOfferPeriod {
            let ownPrice = transaction.storefront.flatMap { product.prices?[$0] } != nil
            guard let offer = product.introOffer, !ownPrice else { return nil }
            return (offer.price, listed.currency, .catalog)
        }
        return (listed.amount, listed.currency, .catalog)
    }

    /// How long the period `transaction` bought lasts: a month for a monthly-billed
    /// commitment's charge, a pay-up-front offer's whole length (Apple's `offerPeriod`, or for a
    /// receipt the catalog's introductory offer), else the product's billing period in the catalog.
    public static func period(of transaction: TransactionFact, catalog: ProductCatalog) -> ISO8601Duration? {
        // A monthly-billed commitment counts its monthly charge (DESIGN.md, `mrr`).
        if transaction.isMonthlyCommitment { return ISO8601Duration(months: 1) }
        if transaction.offerDiscountType == "PAY_UP_FRONT", let offered = transaction.offerPeriod.flatMap(ISO8601Duration.init) {
            return offered
        }
        let product = catalog.product(transaction.productID)
        if transaction.isInIntroOfferPeriod, transaction.offerDiscountType == nil, let offer = product?.introOffer,
            offer.paymentMode == .payUpFront
        {
            return offer.totalDuration
        }
        return product?.period
    }

    /// Apple's price in milliunits, as units.
    public static func applePrice(_ transaction: TransactionFact) -> (amount: Decimal, currency: String)? {
        guard let milliunits = transaction.priceMilliunits, let currency = transaction.currency else { return nil }
        return (Decimal.scaled(milliunits, exponent: -3), currency)
    }
}

extension ReportPricing {
    /// What `transaction` of `chain` brought at `price`: revenue and estimated proceeds (less
    /// what a refund gave back, with `refunds`).
    func money(
        of transaction: TransactionFact, in chain: ReportedSubscription, price: (amount: Decimal, currency: String), refunds: Bool
    )
        -> TransactionMoney
    {
        TransactionMoney.of(
            price: price.amount, currency: price.currency, storefront: transaction.storefront,
            refund: refunds ? transaction.refundedShare : nil, commission: commission(transaction, in: chain), taxRates: taxRates)
    }

    /// Apple's commission on `transaction`: reduced in the Small Business Program, and for a
    /// subscription period that starts after a year of paid service in the chain.
    func commission(_ transaction: TransactionFact, in chain: ReportedSubscription) -> CommissionRate {
        smallBusiness(chain.bundleID).includes(transaction.purchaseDate) || chain.afterPaidYear.contains(transaction.transactionID)
            ? .reduced : .standard
    }
}

extension TransactionFact {
    /// The share of the price Apple gave back: nil when not refunded (a family revocation and
    /// an upgrade are not refunds), the prorated share, or 1 for a full refund or one without a type.
    public var refundedShare: Decimal? {
        // An upgrade ends the old plan's period with a cancellation date: a plan change, not a refund.
        guard cancellationDate != nil, !isUpgraded else { return nil }
        switch revocationType {
        case "FAMILY_REVOKE": return nil
        case "REFUND_PRORATED": return revocationPercentage.map { Decimal.scaled(Int64($0), exponent: -5) } ?? 1
        default: return 1
        }
    }

    /// A period the customer paid for: not a free trial.
    var isPaid: Bool { !isTrialPeriod }
}
