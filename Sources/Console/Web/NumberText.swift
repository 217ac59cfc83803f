import Foundation

/// Numbers as the console shows them: counts with thousands separators, money with two
/// decimals and its currency, rates as percentages. Fixed to one locale (en_US_POSIX digits
/// with commas), so a page reads the same on every server.
enum NumberText {
    static func count(_ value: Double) -> String {
        grouped(value, decimals: 0)
    }

    static func money(_ value: Double, currency: String) -> String {
        "\(grouped(value, decimals: 2)) \(currency)"
    }

    static func money(_ value: Decimal, currency: String) -> String {
        money(NSDecimalNumber(decimal: value).doubleValue, currency: currency)
    }

    static func percent(_ rate: Double) -> String {
        String(format: "%.1f%%", rate * 100)
    }

    private static func grouped(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "–" }
        let text = String(format: "%.\(decimals)f", abs(value))
        let parts = text.split(separator: ".", maxSplits: 1)
        var digits = Array(parts[0])
        var groupedDigits = ""
        while digits.count > 3 {
            groupedDigits = "," + String(digits.suffix(3)) + groupedDigits
            digits.removeLast(3)
        }
        groupedDigits = String(digits) + groupedDigits
        let sign = value < 0 && text.contains(where: { $0 != "0" && $0 != "." }) ? "-" : ""
        return sign + groupedDigits + (parts.count > 1 ? "." + parts[1] : "")
    }
}
