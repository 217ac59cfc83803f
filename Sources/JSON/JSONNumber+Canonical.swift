import Foundation

extension JSONNumber {
    /// The text the intake's previous pipeline (`JSONSerialization`, then `"\(NSNumber)"`
    /// by type) produced for this literal, so canonical bytes and dedupe keys do not change.
    ///
    /// This mirrors how swift-corelibs-foundation turns a JSON number into an `NSNumber`:
    /// an integer literal (no `.` and no lowercase `e`) with at most 19 characters when
    /// negative, 20 when not, becomes `Int64`/`UInt64`; a literal with more than 17
    /// characters before its `e` and an exponent within ±127 goes through `Decimal` (whose
    /// conversion to `Double` is not always the nearest double: `0.30000000000000004`
    /// gives `0.3000000000000001`); anything else through `Double`. A literal that
    /// `JSONSerialization` refused (beyond `Double`'s range) keeps its own text, so the
    /// output stays valid JSON.
    var canonicalText: String {
        let utf8 = text.utf8
        let isNegative = utf8.first == UInt8(ascii: "-")
        let expIndex = utf8.firstIndex(of: UInt8(ascii: "e"))
        let hasFraction = utf8.contains(UInt8(ascii: "."))
        let digitCount = utf8.distance(from: utf8.startIndex, to: expIndex ?? utf8.endIndex)
        if !hasFraction, expIndex == nil {
            if isNegative, digitCount <= 19, let value = Int64(text) { return String(value) }
            if !isNegative, digitCount <= 20, let value = UInt64(text) { return String(value) }
        }
        var exponent = 0
        if let expIndex, let parsed = Int(Substring(utf8[utf8.index(after: expIndex)...])) {
            exponent = parsed
        }
        if digitCount > 17, (-128...127).contains(exponent), let decimal = Decimal(string: text), decimal.isFinite {
            return "\(NSDecimalNumber(decimal: decimal).doubleValue)"
        }
        if let value = Double(text), value.isFinite {
            return "\(value)"
        }
        return text
    }
}
