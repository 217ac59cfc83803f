import Foundation

extension JSONValue {
    /// Decodes a `Decodable` from this tree, with `JSONDecoder`'s behaviour exactly.
    ///
    /// This re-encodes the already validated tree (keys sorted, numbers as their literal
    /// text, so no digit changes) and hands it to `JSONDecoder`. Because the tree has no
    /// duplicate keys and the text is re-written from it, the typed view and any canonical
    /// copy written from the same tree always agree, which decoding the raw body cannot promise.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        let text = CanonicalJSONWriter.bytes(self, numbers: .literal)
        return try JSONDecoder().decode(T.self, from: Data(text))
    }
}

extension NotificationV1 {
    /// Decodes a body already parsed by `StrictJSONParser` (see `JSONValue.decode(_:)`).
    public static func decode(from value: JSONValue) throws -> NotificationV1 {
        try value.decode(NotificationV1.self)
    }
}

extension VerifyReceiptResponse {
    /// Decodes a response already parsed by `StrictJSONParser` (see `JSONValue.decode(_:)`).
    public static func decode(from value: JSONValue) throws -> VerifyReceiptResponse {
        try value.decode(VerifyReceiptResponse.self)
    }
}
