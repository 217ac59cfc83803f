import Subscriptions

/// A minimal RFC 4180 reader: comma-separated fields, `"` quoting with `""` for a quote,
/// quoted fields may hold commas and line breaks; LF or CRLF line ends.
struct CSVTable: Sendable {
    /// One record with the file line it starts on (1-based), for problem lines.
    struct Record: Sendable, Equatable {
        var line: Int
        var fields: [String]
    }

    /// The records in file order.
    var records: [Record]

    /// Reads `text`; fails when a quoted field is never closed, naming the line it opened on.
    static func read(_ text: String) -> Result<CSVTable, UnclosedQuote> {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var line = 1
        var recordLine = 1
        var quoteLine: Int?  // the line a still-open quoted field started on
        var atFieldStart = true
        var chars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil

        func next() -> Unicode.Scalar? {
            if let p = pending {
                pending = nil
                return p
            }
            return chars.next()
        }
        while let c = next() {
            if quoteLine != nil {
                if c == "\"" {
                    let after = next()
                    if after == "\"" {
                        field.unicodeScalars.append("\"")
                    } else {
                        quoteLine = nil
                        pending = after
                    }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"" where atFieldStart:
                quoteLine = line
                atFieldStart = false
            case ",":
                fields.append(field)
                field = ""
                atFieldStart = true
            case "\r":
                continue  // a CRLF line end; a lone CR is dropped too
            case "\n":
                fields.append(field)
                field = ""
                atFieldStart = true
                records.append(Record(line: recordLine, fields: fields))
                fields = []
                line += 1
                recordLine = line
            default:
                field.unicodeScalars.append(c)
                atFieldStart = false
            }
        }
        if let quoteLine { return .failure(UnclosedQuote(line: quoteLine)) }
        if !atFieldStart || !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            records.append(Record(line: recordLine, fields: fields))
        }
        return .success(CSVTable(records: records))
    }

    /// A quoted field that never ends.
    struct UnclosedQuote: Error, Equatable {
        var line: Int
    }
}
