import Foundation

/// An ISO 8601 duration such as `P1M`, `P1W`, `P3D`, `P1Y` or `PT12H`, as App Store
/// Connect and the product catalog write subscription periods.
public struct ISODuration: Sendable, Hashable, CustomStringConvertible {
    /// Whole years.
    public var years: Int
    /// Whole months.
    public var months: Int
    /// Whole weeks.
    public var weeks: Int
    /// Whole days.
    public var days: Int
    /// Whole seconds of the time part (`PT…H…M…S`).
    public var timeSeconds: Int

    /// A duration from its parts.
    public init(years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0, timeSeconds: Int = 0) {
        self.years = years
        self.months = months
        self.weeks = weeks
        self.days = days
        self.timeSeconds = timeSeconds
    }

    /// Parses `text`; `nil` when it is not a positive ISO 8601 duration.
    public init?(_ text: String) {
        var rest = Substring(text.uppercased())
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var inTime = false
        var number = ""
        var result = ISODuration()
        for char in rest {
            if char == "T", number.isEmpty, !inTime {
                inTime = true
            } else if char.isASCII, char.isNumber {
                number.append(char)
            } else {
                guard let value = Int(number) else { return nil }
                number = ""
                switch (inTime, char) {
                case (false, "Y"): result.years += value
                case (false, "M"): result.months += value
                case (false, "W"): result.weeks += value
                case (false, "D"): result.days += value
                case (true, "H"): result.timeSeconds += value * 3600
                case (true, "M"): result.timeSeconds += value * 60
                case (true, "S"): result.timeSeconds += value
                default: return nil
                }
            }
        }
        guard number.isEmpty, result.approximateSeconds > 0 else { return nil }
        self = result
    }

    /// The canonical text, e.g. `P1M`.
    public var description: String {
        var text = "P"
        if years > 0 { text += "\(years)Y" }
        if months > 0 { text += "\(months)M" }
        if weeks > 0 { text += "\(weeks)W" }
        if days > 0 { text += "\(days)D" }
        if timeSeconds > 0 { text += "T\(timeSeconds)S" }
        return text
    }

    /// Length in seconds with 365-day years and 30-day months: for comparisons, not calendars.
    public var approximateSeconds: Double {
        Double(years) * 365 * 86_400 + Double(months) * 30 * 86_400
            + Double(weeks * 7 + days) * 86_400 + Double(timeSeconds)
    }

    /// The duration repeated `count` times.
    public func times(_ count: Int) -> ISODuration {
        ISODuration(
            years: years * count, months: months * count, weeks: weeks * count,
            days: days * count, timeSeconds: timeSeconds * count
        )
    }
}

extension ISODuration: Codable {
    /// Decodes from the ISO 8601 text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = ISODuration(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 duration: \(text)")
        }
        self = value
    }

    /// Encodes as the canonical ISO 8601 text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
