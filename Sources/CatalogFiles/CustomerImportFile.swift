import Foundation

/// `subscriptionctl import FILE.csv`: existing customers to move in. A header naming
/// `app_user_id` and at least one of `transaction_id`, `original_transaction_id` and
/// `receipt_data` (other columns are ignored, so an export can be used as it is), then one
/// customer purchase a line.
///
/// A file that cannot be read as such (no header, a missing column, an unclosed quote) is
/// ``Unusable`` whole; a bad row is only that row's refusal, with its line, so the others
/// still import.
public enum CustomerImportFile {
    /// The columns that name Apple's evidence, in the order a row's first non-empty one is taken.
    public static let evidenceColumns = ["transaction_id", "original_transaction_id", "receipt_data"]

    /// Why the file as a whole cannot be imported: one line.
    public struct Unusable: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The rows of `text` in file order, blank lines left out.
    public static func parse(_ text: String) -> Result<[CustomerImportRow], Unusable> {
        let table: CSVTable
        switch CSVTable.read(text) {
        case .success(let read): table = read
        case .failure(let unclosed): return .failure(Unusable(description: "line \(unclosed.line): a quoted field is never closed"))
        }
        var records = table.records.filter { !$0.fields.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty } }
        guard !records.isEmpty else {
            return .failure(Unusable(description: "the file is empty: expected a header such as app_user_id,transaction_id"))
        }
        let header = records.removeFirst()
        let columns: Columns
        switch Columns.read(header) {
        case .success(let read): columns = read
        case .failure(let unusable): return .failure(unusable)
        }
        return .success(records.map { columns.row($0) })
    }

    /// Where the columns the import reads are in the header.
    private struct Columns {
        let width: Int
        let appUserID: Int
        let evidence: [(name: String, index: Int)]

        static func read(_ header: CSVTable.Record) -> Result<Columns, Unusable> {
            let names = header.fields.enumerated().map { index, field in
                let name = field.trimmingCharacters(in: .whitespaces).lowercased()
                // A spreadsheet's UTF-8 byte order mark sits before the first name.
                return index == 0 && name.hasPrefix("\u{FEFF}") ? String(name.dropFirst()) : name
            }
            let place = "line \(header.line)"
            for name in ["app_user_id"] + evidenceColumns where names.filter({ $0 == name }).count > 1 {
                return .failure(Unusable(description: "\(place): the header names \(name) twice"))
            }
            guard let user = names.firstIndex(of: "app_user_id") else {
                return .failure(
                    Unusable(description: "\(place): the header has no app_user_id column (found \(names.joined(separator: ",")))"))
            }
            let evidence = evidenceColumns.compactMap { name in names.firstIndex(of: name).map { (name, $0) } }
            guard !evidence.isEmpty else {
                return .failure(
                    Unusable(
                        description:
                            "\(place): the header needs a transaction_id, original_transaction_id or receipt_data column beside app_user_id"
                    ))
            }
            return .success(Columns(width: names.count, appUserID: user, evidence: evidence))
        }

        func row(_ record: CSVTable.Record) -> CustomerImportRow {
            let line = record.line
            guard record.fields.count == width else {
                return .refused(line: line, "expected \(width) fields as in the header, found \(record.fields.count)")
            }
            let user = record.fields[appUserID].trimmingCharacters(in: .whitespaces)
            guard !user.isEmpty else { return .refused(line: line, "app_user_id is empty") }
            guard user.utf8.count <= 255 else { return .refused(line: line, "app_user_id is longer than 255 bytes") }
            let given = evidence.lazy.map { ($0.name, record.fields[$0.index].trimmingCharacters(in: .whitespacesAndNewlines)) }
            guard let (name, value) = given.first(where: { !$0.1.isEmpty }) else {
                return .refused(line: line, "no \(evidence.map(\.name).joined(separator: ", ")) given")
            }
            switch name {
            case "receipt_data":
                let compact = value.filter { !$0.isWhitespace }
                guard let data = Data(base64Encoded: compact), !data.isEmpty else {
                    return .refused(line: line, "receipt_data is not base64")
                }
                return CustomerImportRow(line: line, appUserID: user, content: .receipt(compact))
            default:
                guard value.count <= 32, value.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                    return .refused(line: line, "\(name) \"\(value.prefix(40))\" is not an App Store transaction id (digits)")
                }
                let key: CustomerImportRow.Content =
                    name == "transaction_id" ? .transactionID(value) : .originalTransactionID(value)
                return CustomerImportRow(line: line, appUserID: user, content: key)
            }
        }
    }
}
