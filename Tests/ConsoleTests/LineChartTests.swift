import Foundation
import Testing

@testable import Console

@Suite("The overview's charts, drawn as SVG by the server")
struct LineChartTests {
    private func chart(_ values: [Double?], labels: [String]? = nil, title: String = "Actives") -> LineChart {
        LineChart(
            id: "c", title: title, labels: labels ?? values.indices.map { "day \($0)" }, series: [.init(name: "Actives", values: values)],
            format: { String(format: "%.0f", $0) })
    }

    @Test("a series becomes one path through every point, scaled to a round top")
    func path() {
        let svg = chart([0, 50, 100]).svg
        #expect(svg.contains("role=\"img\""))
        #expect(svg.contains("<title id=\"c-title\">Actives</title>"))
        // 100 is its own round top: the last point touches the top line (y = 30).
        #expect(svg.contains("M52.0,192.0 L340.0,111.0 L628.0,30.0"))
        #expect(svg.contains(">100</text>"))
        // One series needs no legend.
        #expect(!svg.contains("class=\"legend\""))
        #expect(!svg.contains("style="))
    }

    @Test("a missing value breaks the line instead of dropping to zero")
    func gaps() {
        let svg = chart([10, nil, 10]).svg
        #expect(svg.contains("d=\"M52.0,30.0 M628.0,30.0\""))
    }

    @Test("every text is escaped: a title or label cannot open markup")
    func escaping() {
        let svg = chart([1, 2], labels: ["<b>", "\"x\""], title: "<script>alert(1)</script>").svg
        #expect(!svg.contains("<script>"))
        #expect(!svg.contains("<b>"))
        #expect(svg.contains("&lt;script&gt;"))
        #expect(svg.contains("&quot;x&quot;"))
    }

    @Test("the description says the range, the last and the highest value")
    func description() {
        #expect(chart([3, 9, 4]).description == "Actives, day 0 to day 2. Actives: 4 at the end, highest 9.")
        #expect(chart([]).description == "Actives: no data")
        #expect(chart([nil, nil]).description == "Actives, day 0 to day 1. Actives: no data.")
    }

    @Test("two series get a legend naming each")
    func legend() {
        let svg = LineChart(
            id: "l", title: "t", labels: ["a", "b"],
            series: [.init(name: "New", values: [1, 2]), .init(name: "Churned", values: [0, 1])],
            format: { "\($0)" }
        ).svg
        #expect(svg.contains(">New</text>") && svg.contains(">Churned</text>"))
        #expect(svg.contains("series-1"))
    }

    @Test("axis numbers are compact: the caption carries the unit")
    func compact() {
        #expect(LineChart.compact(0) == "0")
        #expect(LineChart.compact(2.5) == "2.5")
        #expect(LineChart.compact(120) == "120")
        #expect(LineChart.compact(1_250) == "1.2k")
        #expect(LineChart.compact(25_000) == "25k")
        #expect(LineChart.compact(3_400_000) == "3.4M")
    }

    @Test("round tops: 1, 2, 2.5 or 5 times a power of ten")
    func niceCeiling() {
        #expect(LineChart.niceCeiling(0) == 1)
        #expect(LineChart.niceCeiling(7) == 10)
        #expect(LineChart.niceCeiling(120) == 200)
        #expect(LineChart.niceCeiling(2_400) == 2_500)
        #expect(LineChart.niceCeiling(.infinity) == 1)
    }
}

@Suite("Console forms and numbers")
struct ConsoleFormTests {
    @Test("a url-encoded body: + is a space, %XX a byte, the first of a repeated field wins")
    func parse() {
        let fields = ConsoleForm.parse("name=ana+b&reason=%3Cscript%3E%22&name=other&empty=&bad=%ZZ&flag")
        #expect(fields["name"] == "ana b")
        #expect(fields["reason"] == "<script>\"")
        #expect(fields["empty"] == "")
        #expect(fields["bad"] == nil)
        #expect(fields["flag"] == "")
    }

    @Test("counts and money are grouped by thousands, rates are percentages")
    func numbers() {
        #expect(NumberText.count(1_234_567) == "1,234,567")
        #expect(NumberText.money(1234.5, currency: "USD") == "1,234.50 USD")
        #expect(NumberText.money(-0.001, currency: "EUR") == "0.00 EUR")
        #expect(NumberText.money(-12.5, currency: "EUR") == "-12.50 EUR")
        #expect(NumberText.percent(0.0512) == "5.1%")
        #expect(NumberText.count(.nan) == "–")
    }
}
