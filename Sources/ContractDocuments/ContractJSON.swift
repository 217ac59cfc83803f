import Foundation

/// The encoder for contract JSON that is not one of the read documents (webhook events,
/// `{"status":"pending"}`): RFC 3339 UTC timestamps, stable key order. The read documents
/// write themselves (``ContractJSONWriter``), in the same form.
public enum ContractJSON {
    /// Encodes a document as compact JSON bytes.
    public static func encode(_ value: some Encodable, pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
