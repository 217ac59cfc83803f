import Foundation
import Subscriptions

extension CatalogValidator {
    /// Apple's free-trial bounds: 3 days up to 1 year.
    private static let shortestTrial = ISO8601Duration(days: 3)!
    private static let longestTrial = ISO8601Duration(years: 1)!

    /// The offer the raw text describes, or `nil`, with every problem found.
    ///
    /// `basePeriod` is the product's renewal period when it is valid; the pay-as-you-go rule
    /// is skipped without it (the missing period is reported on its own).
    static func checkOffer(_ raw: RawIntroOffer, basePeriod: ISO8601Duration?) -> (offer: IntroOffer?, problems: [String]) {
        var problems: [String] = []

        let mode = raw.paymentMode.flatMap(IntroPaymentMode.init(rawValue:))
        switch raw.paymentMode {
        case nil: problems.append("intro offer has no payment_mode")
        case let text? where mode == nil:
            problems.append("unknown intro payment_mode \"\(text)\" (expected pay_as_you_go, pay_up_front or free_trial)")
        default: break
        }

        let period = raw.period.flatMap(ISO8601Duration.init)
        if let text = raw.period, period == nil {
            problems.append("bad ISO 8601 duration \"\(text)\" for intro_offer.period")
        } else if raw.period == nil {
            problems.append("intro offer has no period")
        }

        // One period is what App Store Connect means when it shows no count.
        var periods: Int? = 1
        if let text = raw.periods {
            periods = Int(text)
            if let count = periods, count < 1 {
                problems.append("intro offer periods \(count) is less than 1")
                periods = nil
            } else if periods == nil {
                problems.append("intro offer periods \"\(text)\" is not a whole number")
            }
        }

        var price: Decimal?
        switch raw.price.map(CatalogPrice.read) {
        case .price(let value)?: price = value
        case .negative?: problems.append("negative intro price \(raw.price ?? "")")
        case .notDecimal?: problems.append("intro price \"\(raw.price ?? "")\" is not a decimal number")
        case nil where mode == .freeTrial: price = 0  // a free trial is free by definition
        case nil: problems.append("intro offer has no price")
        }

        if mode == .payAsYouGo, let period, let basePeriod, !period.isSamePeriod(as: basePeriod) {
            problems.append("pay_as_you_go intro period \(period) differs from the base period \(basePeriod)")
        }
        if mode == .freeTrial, let period, let periods, let total = period.repeated(periods) {
            let shown = periods == 1 ? "\(period)" : "\(periods) × \(period) (\(total))"
            if total.isShorter(than: shortestTrial) {
                problems.append("free trial \(shown) is shorter than 3 days")
            } else if total.isLonger(than: longestTrial) {
                problems.append("free trial \(shown) is longer than 1 year")
            }
        }
        if mode == .freeTrial, let price, price != 0 {
            problems.append("free trial price \(raw.price ?? "\(price)") must be 0")
        }

        guard problems.isEmpty, let mode, let period, let periods, let price else { return (nil, problems) }
        return (IntroOffer(paymentMode: mode, period: period, periods: periods, price: price), [])
    }
}
