import Foundation

extension JSONValue {
    /// Decodes a `Decodable` from this tree, by `JSONDecoder`'s rules (`JSONValueDecoder`).
    ///
    /// Reads the already validated tree directly: the body is parsed once. Because the tree
    /// has no duplicate keys, the typed view and any canonical copy written from the same
    /// tree always agree, which decoding the raw body cannot promise.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONValueDecoder.decode(T.self, from: self, codingPath: [])
    }
}
