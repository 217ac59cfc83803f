import Foundation

/// What a product costs in one currency, as the catalog states it for purchases Apple does not
/// price (v1 receipts): `{"price": "9.99", "currency": "EUR"}`.
public struct StorePrice: Sendable, Hashable, Codable {
    /// The amount, in the currency's units.
    public var amount: Decimal
    /// ISO 4217, three upper-case letters.
    public var currency: String

    public init(amount: Decimal, currency: String) {
        self.amount = amount
        self.currency = currency
    }

    private enum CodingKeys: String, CodingKey {
        case amount = "price", currency
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .amount)
        guard case .price(let amount) = CatalogPrice.read(text) else {
            throw DecodingError.dataCorruptedError(forKey: .amount, in: container, debugDescription: "price \(text) is not a decimal")
        }
        self.amount = amount
        self.currency = try container.decode(String.self, forKey: .currency)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("\(amount)", forKey: .amount)
        try container.encode(currency, forKey: .currency)
    }
}
