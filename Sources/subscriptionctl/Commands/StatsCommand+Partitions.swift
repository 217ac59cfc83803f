import Foundation
import Store

/// The partitions part of `stats` for people: each table's months and what waits in its
/// default partition.
struct PartitionStatsText {
    let tables: [PartitionedTableStats]

    func print() {
        Output.line("")
        Output.line(Style.heading("partitions"))
        var table = Table("TABLE", "MONTHS", "FROM", "THROUGH", "IN DEFAULT")
        for stats in tables {
            table.append([
                stats.table, String(stats.months.count), stats.months.first ?? "-", stats.months.last ?? "-", String(stats.defaultRows),
            ])
        }
        Output.line(table.render())
        if tables.contains(where: { $0.defaultRows > 0 }) {
            Output.line("rows in a default partition belong to months not made yet; the worker's retention job makes them")
        }
    }
}

/// `stats --json`: `"partitions": [{"table", "months", "default_rows"}]`.
struct PartitionStatsDocument: Encodable {
    let stats: PartitionedTableStats

    enum Keys: String, CodingKey { case table, months, defaultRows = "default_rows" }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(stats.table, forKey: .table)
        try container.encode(stats.months, forKey: .months)
        try container.encode(stats.defaultRows, forKey: .defaultRows)
    }
}
