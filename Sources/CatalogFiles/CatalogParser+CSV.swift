import Foundation
import Subscriptions

extension CatalogParser {
    /// The CSV columns, in the documented order.
    static let csvColumns = [
        "product_id", "bundle_id", "type", "subscription_group_id", "period",
        "intro_payment_mode", "intro_period", "intro_periods", "intro_price", "price", "currency",
    ]
    private static let requiredCSVColumns = ["product_id", "bundle_id", "type"]
    private static let introCSVColumns = ["intro_payment_mode", "intro_period", "intro_periods", "intro_price"]

    /// The entries of a CSV catalog, or the problems that stop reading it at all.
    static func entries(csv: [UInt8]) -> Result<[CatalogEntry], CatalogProblems> {
        guard var text = String(validating: csv, as: UTF8.self) else {
            return .failure(CatalogProblems(lines: ["catalog: not UTF-8 text"]))
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }  // spreadsheets write a byte order mark
        let table: CSVTable
        switch CSVTable.read(text) {
        case .success(let read): table = read
        case .failure(let unclosed):
            return .failure(CatalogProblems(lines: ["line \(unclosed.line): quoted field is never closed"]))
        }
        let rows = table.records.filter { !$0.fields.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty } }
        guard let header = rows.first else {
            return .failure(CatalogProblems(lines: ["catalog: no header row"]))
        }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let missing = requiredCSVColumns.filter { !names.contains($0) }
        guard missing.isEmpty else {
            let list = csvColumns.joined(separator: ",")
            return .failure(
                CatalogProblems(lines: [
                    "line \(header.line): the header row lacks \(missing.joined(separator: ", ")) (columns: \(list))"
                ]))
        }
        return .success(rows.dropFirst().map { entry($0, names: names) })
    }

    private static func entry(_ row: CSVTable.Record, names: [String]) -> CatalogEntry {
        var entry = CatalogEntry(position: "line \(row.line)")
        guard row.fields.count == names.count else {
            // Shifted cells would be read as the wrong fields; naming the row is all that is safe.
            entry.readProblems.append("expected \(names.count) fields, found \(row.fields.count)")
            entry.isUnreadable = true
            return entry
        }
        var cells: [String: String] = [:]
        for (name, value) in zip(names, row.fields) where cells[name] == nil {
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { cells[name] = trimmed }
        }
        entry.productID = cells["product_id"]
        entry.bundleID = cells["bundle_id"]
        entry.type = cells["type"]
        entry.subscriptionGroupID = cells["subscription_group_id"]
        entry.period = cells["period"]
        entry.price = cells["price"]
        entry.currency = cells["currency"]
        if introCSVColumns.contains(where: { cells[$0] != nil }) {
            entry.introOffers = [
                RawIntroOffer(
                    paymentMode: cells["intro_payment_mode"],
                    period: cells["intro_period"],
                    periods: cells["intro_periods"],
                    price: cells["intro_price"]
                )
            ]
        }
        return entry
    }
}
