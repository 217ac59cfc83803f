import Foundation

/// Strict reading of catalog prices.
public enum CatalogPrice {
    /// The outcome of reading a price.
    public enum Reading: Equatable, Sendable {
        case price(Decimal)
        case negative
        case notDecimal
    }

    /// Reads `12`, `0.00`, `4.99`; a leading `-` makes it `negative`. Anything else (`4,99`,
    /// `abc`, `1e3`, `.5`, `+1`) is `notDecimal`: `Decimal(string:)` alone would accept
    /// `4,99` as 4 and silently change the price.
    public static func read(_ text: String) -> Reading {
        let isNegative = text.hasPrefix("-")
        let digits = isNegative ? String(text.dropFirst()) : text
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDecimal =
            parts.count >= 1
            && parts.allSatisfy { part in
                !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber }
            }
        guard isDecimal, let value = Decimal(string: digits, locale: Locale(identifier: "en_US_POSIX")) else {
            return .notDecimal
        }
        return isNegative && value != 0 ? .negative : .price(value)
    }
}
