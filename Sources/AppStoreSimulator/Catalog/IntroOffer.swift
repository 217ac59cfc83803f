/// An introductory offer of a subscription product (APPSTORE.md, "Introductory offers").
public struct IntroOffer: Sendable, Hashable, Codable {
    /// How the customer pays during the offer.
    public enum PaymentMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Nothing to pay for `period` × `periods`.
        case freeTrial = "free_trial"
        /// A reduced price each base period, `periods` times.
        case payAsYouGo = "pay_as_you_go"
        /// One reduced payment for `period` × `periods`.
        case payUpFront = "pay_up_front"
    }

    /// The payment mode.
    public var paymentMode: PaymentMode
    /// The length of one offer period.
    public var period: ISODuration
    /// How many offer periods.
    public var periods: Int
    /// The price as a decimal string, e.g. `"0.00"`.
    public var price: String

    /// An offer from its parts.
    public init(paymentMode: PaymentMode, period: ISODuration, periods: Int = 1, price: String = "0.00") {
        self.paymentMode = paymentMode
        self.period = period
        self.periods = max(1, periods)
        self.price = price
    }

    enum CodingKeys: String, CodingKey {
        case paymentMode = "payment_mode"
        case period, periods, price
    }

    /// Decodes the catalog format; `periods` defaults to 1 and `price` to `"0.00"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            paymentMode: try container.decode(PaymentMode.self, forKey: .paymentMode),
            period: try container.decode(ISODuration.self, forKey: .period),
            periods: try container.decodeIfPresent(Int.self, forKey: .periods) ?? 1,
            price: try container.decodeIfPresent(String.self, forKey: .price) ?? "0.00"
        )
    }
}
