extension JSONValue: Encodable {
    /// Encodes the tree with any `Encoder` (`subscriptionctl --json` embeds stored bodies).
    /// A number goes out as an `Int64` when its literal is one, else as a finite `Double`
    /// (what a reader using Foundation would see), else as its literal text in a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let number):
            if let integer = number.int64 {
                try container.encode(integer)
            } else if let double = number.double, double.isFinite {
                try container.encode(double)
            } else {
                try container.encode(number.text)
            }
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }
}
