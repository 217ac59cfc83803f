/// A `Decoder` reading straight from a `JSONValue` tree, so a body parsed once by
/// `StrictJSONParser` is never written out and parsed again to decode its typed view.
///
/// It follows `JSONDecoder`'s rules (default strategies) for everything our Apple types use:
/// strings only from strings, booleans only from booleans, integers from numbers that hold an
/// exactly representable integer (`1`, `1.0`, `1e3`; not `1.5`, not one too large: those are
/// `dataCorrupted`), floating point from any finite number, `null` as absent for
/// `decodeIfPresent`; a value of the wrong kind is `typeMismatch` and a missing key
/// `keyNotFound`, with the coding path of the value (array positions as `Index N` keys).
struct JSONValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, codingPath: [any CodingKey] = []) {
        self.value = value
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw JSONValueDecoder.mismatch([String: Any].self, value, codingPath)
        }
        return KeyedDecodingContainer(JSONValueKeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw JSONValueDecoder.mismatch([Any].self, value, codingPath)
        }
        return JSONValueUnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        JSONValueSingleValueContainer(value: value, codingPath: codingPath)
    }

    /// Decodes `type` from `value` at `codingPath`: scalars by `JSONDecoder`'s rules, anything
    /// else through its own `init(from:)`.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, codingPath: [any CodingKey]) throws -> T {
        if T.self == String.self {
            guard case .string(let text) = value else { throw mismatch(T.self, value, codingPath) }
            return text as! T
        }
        if T.self == Bool.self {
            guard case .bool(let flag) = value else { throw mismatch(T.self, value, codingPath) }
            return flag as! T
        }
        if T.self == Double.self { return try floatingPoint(Double.self, value, codingPath) as! T }
        if T.self == Float.self { return try floatingPoint(Float.self, value, codingPath) as! T }
        if T.self == Int.self { return try integer(Int.self, value, codingPath) as! T }
        if T.self == Int64.self { return try integer(Int64.self, value, codingPath) as! T }
        if T.self == UInt64.self { return try integer(UInt64.self, value, codingPath) as! T }
        if T.self == Int32.self { return try integer(Int32.self, value, codingPath) as! T }
        if T.self == UInt32.self { return try integer(UInt32.self, value, codingPath) as! T }
        if T.self == Int16.self { return try integer(Int16.self, value, codingPath) as! T }
        if T.self == UInt16.self { return try integer(UInt16.self, value, codingPath) as! T }
        if T.self == Int8.self { return try integer(Int8.self, value, codingPath) as! T }
        if T.self == UInt8.self { return try integer(UInt8.self, value, codingPath) as! T }
        if T.self == UInt.self { return try integer(UInt.self, value, codingPath) as! T }
        return try T(from: JSONValueDecoder(value, codingPath: codingPath))
    }

    static func integer<I: FixedWidthInteger>(_ type: I.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) throws -> I {
        guard case .number(let number) = value else { throw mismatch(I.self, value, codingPath) }
        if number.isIntegerLiteral {
            if let exact = I(number.text) { return exact }
        } else if let double = Double(number.text), let exact = I(exactly: double) {
            return exact
        }
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: codingPath, debugDescription: "Parsed JSON number <\(number.text)> does not fit in \(I.self)."))
    }

    static func floatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ type: F.Type, _ value: JSONValue, _ codingPath: [any CodingKey]
    ) throws -> F {
        guard case .number(let number) = value else { throw mismatch(F.self, value, codingPath) }
        guard let parsed = F(number.text), parsed.isFinite else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath, debugDescription: "Parsed JSON number <\(number.text)> does not fit in \(F.self)."))
        }
        return parsed
    }

    static func mismatch(_ expected: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
        if case .null = value {
            return .valueNotFound(
                expected, .init(codingPath: codingPath, debugDescription: "Cannot get \(expected) -- found null value instead"))
        }
        return .typeMismatch(
            expected, .init(codingPath: codingPath, debugDescription: "Expected to decode \(expected) but found \(value.kindName) instead.")
        )
    }
}

/// An array position in a coding path, spelled as `JSONDecoder` spells it.
struct JSONIndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String

    init(index: Int) {
        intValue = index
        stringValue = "Index \(index)"
    }

    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.init(index: intValue) }
}

extension JSONValue {
    /// What kind of value this is, for error messages.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "a dictionary"
        }
    }
}
