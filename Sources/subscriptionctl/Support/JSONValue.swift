import Foundation

/// Any JSON value, so a stored body can be embedded as JSON (not as a string) in `--json` output.
enum JSONValue: Codable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses JSON text; nil when it is not JSON.
    init?(parsing text: String) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { return nil }
        self = value
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value without the given top-level keys (objects only).
    func removingKeys(_ keys: Set<String>) -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.filter { !keys.contains($0.key) })
    }

    /// The value with every receipt (base64 data Apple can be asked about) replaced by a
    /// placeholder giving its length, at any depth: operators need to see that a receipt is
    /// there, never the receipt itself.
    func redactingReceipts() -> JSONValue {
        switch self {
        case .object(let members):
            var redacted: [String: JSONValue] = [:]
            for (key, value) in members {
                if Self.receiptKeys.contains(key), case .string(let receipt) = value {
                    redacted[key] = .string("<receipt, \(receipt.count) characters, redacted>")
                } else {
                    redacted[key] = value.redactingReceipts()
                }
            }
            return .object(redacted)
        case .array(let values):
            return .array(values.map { $0.redactingReceipts() })
        default:
            return self
        }
    }

    private static let receiptKeys: Set<String> = ["latest_receipt", "latest_expired_receipt", "receipt_data", "receipt-data"]
}
