import AppStore
import JSON

/// Whether a JSON document can be stored as `jsonb`: every number within `numeric`'s range.
///
/// PostgreSQL keeps a JSON number as `numeric`, which holds at most 131,072 digits before
/// the decimal point and 16,383 after it (its display scale counts trailing zeros too), and
/// whose input refuses exponents near `Int32`'s limits even for zero. A body holding any
/// other literal fails the insert; checked first, it is the sender's 400 instead of a 500
/// that Apple would retry for days. The rule is a little stricter than PostgreSQL's, never looser.
public enum StorableJSON {
    /// Most digits before the decimal point `numeric` holds.
    static let maximumIntegerDigits = 131_072
    /// Most digits after the decimal point `numeric` holds.
    static let maximumScale = 16_383
    /// Exponents beyond this are refused whatever the digits (PostgreSQL's own bound is about 2^30).
    static let maximumExponent = 100_000_000

    /// The first number of `value` that `numeric` cannot hold, or `nil` when all fit.
    public static func firstUnstorableNumber(in value: JSONValue) -> JSONNumber? {
        switch value {
        case .null, .bool, .string: nil
        case .number(let number): fitsNumeric(number.text) ? nil : number
        case .array(let elements): elements.lazy.compactMap { firstUnstorableNumber(in: $0) }.first
        case .object(let members): members.values.lazy.compactMap { firstUnstorableNumber(in: $0) }.first
        }
    }

    /// Whether a JSON number literal (`-?int(.frac)?([eE][+-]?exp)?`) fits `numeric`.
    static func fitsNumeric(_ literal: String) -> Bool {
        var bytes = Substring(literal).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let mantissa = bytes.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
        let integerPart = mantissa.prefix { $0 != UInt8(ascii: ".") }
        let fractionPart = mantissa.dropFirst(integerPart.count + 1)
        var exponent = 0
        let exponentText = bytes.dropFirst(mantissa.count + 1)
        if !exponentText.isEmpty {
            var digits = exponentText[...]
            let negative = digits.first == UInt8(ascii: "-")
            if digits.first == UInt8(ascii: "-") || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
            for digit in digits {
                exponent = exponent * 10 + Int(digit &- UInt8(ascii: "0"))
                if exponent > maximumExponent { return false }
            }
            if negative { exponent = -exponent }
        }
        guard fractionPart.count - exponent <= maximumScale else { return false }
        // The most significant non-zero digit's place: digits it puts before the point.
        let significantInteger = integerPart.drop { $0 == UInt8(ascii: "0") }.count
        if significantInteger > 0 { return significantInteger + exponent <= maximumIntegerDigits }
        guard let firstNonZero = fractionPart.firstIndex(where: { $0 != UInt8(ascii: "0") }) else { return true }
        let leadingZeros = fractionPart.distance(from: fractionPart.startIndex, to: firstNonZero)
        return exponent - leadingZeros <= maximumIntegerDigits
    }
}
