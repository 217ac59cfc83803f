import Foundation

/// Any JSON value, so a catalog file is read field by field and a wrong type becomes a
/// problem line rather than one decoding error for the whole file.
enum CatalogJSONValue: Sendable, Decodable {
    case object([String: CatalogJSONValue])
    case array([CatalogJSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([CatalogJSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: CatalogJSONValue].self))
        }
    }

    /// A number as text: whole numbers without a fraction (`3`, not `3.0`), others in their
    /// shortest round-tripping form (`4.99`).
    static func text(of number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return String(number)
    }
}
