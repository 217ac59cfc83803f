import Foundation

/// A line chart drawn by the server as SVG, so the overview needs no script: one or more
/// series over the same labelled points, a zero-based value axis with three gridlines, the
/// first, middle and last labels under it. It describes itself for screen readers
/// (`role="img"`, a title, and a description that says the range and the last values) and
/// carries no inline style (the console's Content-Security-Policy allows only its stylesheet).
public struct LineChart: Sendable {
    /// One line: its name (in the legend) and a value per point (nil: no value there).
    public struct Series: Sendable {
        public let name: String
        public let values: [Double?]

        public init(name: String, values: [Double?]) {
            self.name = name
            self.values = values
        }
    }

    public let id: String
    public let title: String
    public let labels: [String]
    public let series: [Series]
    /// Formats a value for the description (with its unit: `12.50 USD`).
    public let format: @Sendable (Double) -> String
    /// Formats a value on the axis, where the caption says the unit (`12.5`, `1.2k`).
    public let axisFormat: @Sendable (Double) -> String

    static let width = 640.0
    static let height = 220.0
    static let left = 52.0
    static let right = 12.0
    static let top = 30.0
    static let bottom = 28.0

    /// A chart named `id` (unique on its page), titled `title`; `axisFormat` defaults to
    /// ``compact(_:)``.
    public init(
        id: String, title: String, labels: [String], series: [Series], format: @escaping @Sendable (Double) -> String,
        axisFormat: @escaping @Sendable (Double) -> String = LineChart.compact
    ) {
        self.id = id
        self.title = title
        self.labels = labels
        self.series = series
        self.format = format
        self.axisFormat = axisFormat
    }

    /// A number in at most four characters or so: `0`, `2.5`, `120`, `1.2k`, `3.4M`.
    @Sendable public static func compact(_ value: Double) -> String {
        let magnitude = abs(value)
        func trimmed(_ number: Double, _ suffix: String) -> String {
            let text = String(format: number < 10 ? "%.1f" : "%.0f", number)
            return (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + suffix
        }
        let sign = value < 0 ? "-" : ""
        if magnitude >= 1_000_000 { return sign + trimmed(magnitude / 1_000_000, "M") }
        if magnitude >= 1_000 { return sign + trimmed(magnitude / 1_000, "k") }
        return sign + trimmed(magnitude, "")
    }

    /// The chart as an `<svg>` element; every text in it is escaped.
    public var svg: String {
        let values = series.flatMap { $0.values.compactMap { $0 } }.filter(\.isFinite)
        let top = Self.niceCeiling(max(values.max() ?? 0, 0))
        let plotWidth = Self.width - Self.left - Self.right
        let plotHeight = Self.height - Self.top - Self.bottom
        func x(_ index: Int) -> Double {
            labels.count < 2 ? Self.left + plotWidth / 2 : Self.left + plotWidth * Double(index) / Double(labels.count - 1)
        }
        func y(_ value: Double) -> Double {
            Self.top + plotHeight * (1 - (top == 0 ? 0 : value / top))
        }
        var parts: [String] = []
        parts.append(
            "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" "
                + "aria-labelledby=\"\(HTML.escape(id))-title \(HTML.escape(id))-desc\">")
        parts.append("<title id=\"\(HTML.escape(id))-title\">\(HTML.escape(title))</title>")
        parts.append("<desc id=\"\(HTML.escape(id))-desc\">\(HTML.escape(description))</desc>")
        for step in 0...2 {
            let value = top * Double(step) / 2
            let lineY = Self.number(y(value))
            parts.append(
                "<line class=\"grid\" x1=\"\(Int(Self.left))\" x2=\"\(Int(Self.width - Self.right))\" y1=\"\(lineY)\" y2=\"\(lineY)\"/>")
            parts.append(
                "<text class=\"axis\" x=\"\(Int(Self.left - 6))\" y=\"\(lineY)\" text-anchor=\"end\" dominant-baseline=\"middle\">"
                    + "\(HTML.escape(axisFormat(value)))</text>")
        }
        for index in Set([0, labels.count / 2, labels.count - 1]).sorted() where labels.indices.contains(index) {
            let anchor = index == 0 ? "start" : index == labels.count - 1 ? "end" : "middle"
            parts.append(
                "<text class=\"axis\" x=\"\(Self.number(x(index)))\" y=\"\(Int(Self.height - 8))\" text-anchor=\"\(anchor)\">"
                    + "\(HTML.escape(labels[index]))</text>")
        }
        if series.count > 1 {
            var x = Self.left
            for (number, line) in series.enumerated() {
                parts.append(
                    "<line class=\"series series-\(number % 4)\" x1=\"\(Int(x))\" x2=\"\(Int(x + 18))\" y1=\"12\" y2=\"12\"/>"
                        + "<text class=\"legend\" x=\"\(Int(x + 24))\" y=\"12\" dominant-baseline=\"middle\">\(HTML.escape(line.name))</text>"
                )
                x += 36 + Double(line.name.count) * 7
            }
        }
        for (number, line) in series.enumerated() {
            var path = ""
            var drawing = false
            for (index, value) in line.values.enumerated() where index < labels.count {
                guard let value, value.isFinite else {
                    drawing = false
                    continue
                }
                path += "\(drawing ? "L" : "M")\(Self.number(x(index))),\(Self.number(y(max(value, 0)))) "
                drawing = true
            }
            parts.append("<path class=\"series series-\(number % 4)\" d=\"\(path.trimmingCharacters(in: .whitespaces))\"/>")
        }
        parts.append("</svg>")
        return parts.joined()
    }

    /// What the chart shows, in words: the range and each series' last and highest value.
    public var description: String {
        guard let first = labels.first, let last = labels.last else { return "\(title): no data" }
        let lines = series.map { line -> String in
            let known = line.values.compactMap { $0 }
            guard let latest = line.values.last(where: { $0 != nil }) ?? nil, let highest = known.max() else {
                return "\(line.name): no data"
            }
            return "\(line.name): \(format(latest)) at the end, highest \(format(highest))"
        }
        return "\(title), \(first) to \(last). " + lines.joined(separator: "; ") + "."
    }

    /// The smallest of 1, 2, 2.5 or 5 times a power of ten at or above `value` (1 for 0).
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        for step in [1.0, 2.0, 2.5, 5.0, 10.0] where step * power >= value * (1 - 1e-12) {
            return step * power
        }
        return 10 * power
    }

    private static func number(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
