import JSON

extension JSONValue {
    /// A stored notification or receipt body as an operator may read it: JSON (or the text as
    /// a string), without `password` (the shared secret is never stored; dropped here too so no
    /// path can show one), receipts redacted, signed fields decoded (``decodingSignedData()``).
    public static func readableStoredBody(_ text: String) -> JSONValue {
        (JSONValue(parsing: text) ?? .string(text)).removingKeys(["password"]).redactingReceipts().decodingSignedData()
    }

    /// Parses JSON text with the strict parser; nil when it is not JSON.
    public init?(parsing text: String) {
        guard let value = try? StrictJSONParser.parse(Array(text.utf8)) else { return nil }
        self = value
    }

    /// The value without the given top-level keys (objects only).
    public func removingKeys(_ keys: Set<String>) -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.filter { !keys.contains($0.key) })
    }

    /// The value with every receipt (base64 data Apple can be asked about) replaced by a
    /// placeholder giving its length, at any depth: operators need to see that a receipt is
    /// there, never the receipt itself.
    public func redactingReceipts() -> JSONValue {
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
