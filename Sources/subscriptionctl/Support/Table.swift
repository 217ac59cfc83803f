/// An aligned text table for people: a header row, then rows, columns padded to fit.
struct Table {
    let headers: [String]
    var rows: [[String]] = []

    init(_ headers: String...) {
        self.headers = headers
    }

    init(_ headers: [String]) {
        self.headers = headers
    }

    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The table's lines, columns separated by two spaces, trailing spaces trimmed.
    /// Widths count visible characters only, so coloured cells still line up.
    func render() -> String {
        var widths = headers.map(Style.visibleWidth)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], Style.visibleWidth(cell))
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1
                    ? cell : cell + String(repeating: " ", count: max(0, widths[index] - Style.visibleWidth(cell)))
            }.joined(separator: "  ")
        }
        return ([line(headers)] + rows.map(line)).joined(separator: "\n")
    }
}

/// Label/value lines for one record, labels padded to the longest.
struct Fields {
    private(set) var pairs: [(String, String)] = []

    mutating func append(_ label: String, _ value: String) {
        pairs.append((label, value))
    }

    func render() -> String {
        let width = pairs.map(\.0.count).max() ?? 0
        return pairs.map { label, value in
            label + String(repeating: " ", count: width - label.count) + "  " + value
        }.joined(separator: "\n")
    }
}
