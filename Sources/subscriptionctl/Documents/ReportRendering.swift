import ContractDocuments
import Foundation
import Subscriptions

/// A report for people (a table with a bar per point) and for spreadsheets (CSV).
enum ReportRendering {
    /// The widest bar, in characters.
    static let barWidth = 30

    /// One row per point: the date, the value, the counts of a rate, and a bar scaled to the
    /// largest value; the groups follow as columns. Warnings and missing rates go last.
    static func table(_ document: ReportDocument) -> String {
        let points = document.points
        let groups = Set(points.flatMap { $0.groups?.keys.map { $0 } ?? [] }).sorted()
        let counts = Set(points.flatMap(\.counts.keys)).sorted()
        let largest = points.compactMap(\.value).map { abs(NSDecimalNumber(decimal: $0).doubleValue) }.max() ?? 0
        var headers = ["DATE", valueHeader(document)] + counts.map { $0.uppercased() } + [""]
        headers += groups
        var table = Table(headers)
        for point in points {
            let value = point.value.map { NSDecimalNumber(decimal: $0).doubleValue }
            var row = [point.date, point.value.map { "\($0)" } ?? "-"] + counts.map { point.counts[$0].map(String.init) ?? "" }
            row.append(bar(value, largest: largest))
            row += groups.map { point.groups?[$0].map { "\($0)" } ?? "0" }
            table.append(row)
        }
        var lines = [table.render()]
        if !document.answer.missingRates.isEmpty {
            lines.append(
                "no exchange rate for \(document.answer.missingRates.joined(separator: ", ")): those amounts are left out "
                    + "(subscriptionctl rates import FILE.csv)")
        }
        lines += document.answer.warnings.map { "warning: \($0)" }
        return lines.joined(separator: "\n")
    }

    /// `date,value[,counts…][,groups…]`, one line per point.
    static func csv(_ document: ReportDocument) -> String {
        let points = document.points
        let groups = Set(points.flatMap { $0.groups?.keys.map { $0 } ?? [] }).sorted()
        let counts = Set(points.flatMap(\.counts.keys)).sorted()
        var lines = [(["date", "value"] + counts + groups).map(field).joined(separator: ",")]
        for point in points {
            var cells: [String] = [point.date, point.value.map { "\($0)" } ?? ""]
            cells += counts.map { point.counts[$0].map(String.init) ?? "" }
            cells += groups.map { group -> String in point.groups?[group].map { "\($0)" } ?? "0" }
            lines.append(cells.map(field).joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    private static func valueHeader(_ document: ReportDocument) -> String {
        let metric = document.answer.query.metric
        return metric.isAmount ? "\(metric.rawValue.uppercased()) (\(document.currency))" : metric.rawValue.uppercased()
    }

    /// A bar of up to ``barWidth`` blocks, eighths for the remainder.
    static func bar(_ value: Double?, largest: Double) -> String {
        guard let value, largest > 0, value > 0 else { return "" }
        let eighths = Int((value / largest * Double(barWidth * 8)).rounded())
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        return String(repeating: "█", count: eighths / 8) + partial[eighths % 8]
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
