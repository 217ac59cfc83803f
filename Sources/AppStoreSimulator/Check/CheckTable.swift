/// The `make demo` table: one row per customer, then the verdict line.
public enum CheckTable {
    /// Renders results; `productIDs` are the eligibility columns.
    public static func render(_ results: [CustomerCheck], productIDs: [String]) -> String {
        let short = shortNames(productIDs)
        var rows = [["CUSTOMER", "SCENARIO", "SENDS", "STATUS", "ENTITLED", "ENTITLEMENTS"] + short + ["AGREES"]]
        for result in results {
            let status = result.actualStatuses.joined(separator: ",")
            let entitled = result.actualEntitledGroups.isEmpty ? "no" : "yes (\(result.actualEntitledGroups.joined(separator: ",")))"
            let eligibility = productIDs.map { result.actualEligibility[$0] ?? "-" }
            let entitlements = result.actualEntitlements.isEmpty ? "-" : result.actualEntitlements.joined(separator: ",")
            rows.append(
                [
                    result.truth.appUserID, result.truth.scenario.rawValue, sends(result.truth.notificationVersion),
                    status.isEmpty ? "-" : status, entitled, entitlements,
                ]
                    + eligibility + [result.agrees ? "yes" : "NO"])
        }
        var widths = rows[0].map(\.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        var lines = rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }
        for result in results where !result.agrees {
            lines.append("  \(result.truth.appUserID): " + result.mismatches.joined(separator: "; "))
        }
        let agreeing = results.filter(\.agrees).count
        lines.append("")
        lines.append("subscriptiond agrees with the simulator: \(agreeing)/\(results.count) customers")
        return lines.joined(separator: "\n")
    }

    /// The last two parts of each product id (`pro.monthly`), more where two would look alike.
    static func shortNames(_ productIDs: [String]) -> [String] {
        var parts = 2
        while true {
            let names = productIDs.map { $0.split(separator: ".").suffix(parts).joined(separator: ".") }
            if Set(names).count == names.count || names == productIDs { return names }
            parts += 1
        }
    }

    /// Which notifications the customer's app receives: `v1`, `v2`, or `v1→v2`.
    private static func sends(_ version: NotificationVersion) -> String {
        switch version {
        case .v1: "v1"
        case .v2: "v2"
        case .migrating: "v1→v2"
        }
    }
}
