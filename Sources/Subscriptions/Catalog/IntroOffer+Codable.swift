import Foundation

/// The catalog file's field names; the price travels as decimal text (`"4.99"`) so no
/// binary floating point ever touches it.
extension IntroOffer: Codable {
    private enum CodingKeys: String, CodingKey {
        case paymentMode = "payment_mode"
        case period
        case periods
        case price
    }

    /// Decodes the catalog shape; the price may be text or a number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let priceText: String
        if let text = try? container.decode(String.self, forKey: .price) {
            priceText = text
        } else {
            priceText = CatalogNumber.text(of: try container.decode(Double.self, forKey: .price))
        }
        guard case .price(let price) = CatalogPrice.read(priceText) else {
            throw DecodingError.dataCorruptedError(forKey: .price, in: container, debugDescription: "not a price: \(priceText)")
        }
        self.init(
            paymentMode: try container.decode(IntroPaymentMode.self, forKey: .paymentMode),
            period: try container.decode(ISO8601Duration.self, forKey: .period),
            periods: try container.decodeIfPresent(Int.self, forKey: .periods) ?? 1,
            price: price
        )
    }

    /// Encodes the catalog shape with the price as decimal text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(paymentMode, forKey: .paymentMode)
        try container.encode(period, forKey: .period)
        try container.encode(periods, forKey: .periods)
        try container.encode("\(price)", forKey: .price)
    }
}
