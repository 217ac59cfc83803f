import Subscriptions

/// The entitlement rules of a catalog file, checked across its products:
/// - every entitlement has an id, once, and lists only products of the file, each once;
/// - a trial product (`trial_of`) is never listed: it grants only through `trial_of`;
/// - a listed non-renewing product has a `period` (how long each purchase grants);
/// - every `trial_of` names an entitlement of the file.
enum EntitlementValidator {
    /// The entitlements, sorted by id, and every problem (each line prefixed with its name).
    static func check(_ entries: [EntitlementEntry], products: [CatalogEntry]) -> (entitlements: [Entitlement], problems: [String]) {
        let productIDs = Set(products.compactMap(\.productID))
        let trials = Set(products.filter { $0.trialOf != nil }.compactMap(\.productID))
        let timeless = Set(products.filter { $0.type == ProductType.nonRenewing.rawValue && $0.period == nil }.compactMap(\.productID))
        var problems: [String] = []
        var entitlements: [Entitlement] = []
        var firstPosition: [String: String] = [:]
        for entry in entries {
            var lines = entry.readProblems
            if let id = entry.id {
                if let first = firstPosition[id] {
                    lines.append("duplicate entitlement id (first at \(first))")
                } else {
                    firstPosition[id] = entry.position
                }
            } else if entry.readProblems.isEmpty {
                lines.append("missing id")
            }
            var seen: Set<String> = []
            for productID in entry.productIDs {
                if !seen.insert(productID).inserted { lines.append("lists \(productID) twice") }
                if !productIDs.contains(productID) {
                    lines.append("unknown product \(productID) (not in this file's products)")
                } else if trials.contains(productID) {
                    lines.append("lists \(productID), a trial product: it grants only through its trial_of")
                } else if timeless.contains(productID) {
                    lines.append("lists \(productID), a non_renewing product without a period (how long each purchase grants)")
                }
            }
            problems += lines.map { "\(entry.name): \($0)" }
            if lines.isEmpty, let id = entry.id { entitlements.append(Entitlement(id: id, productIDs: entry.productIDs)) }
        }
        let ids = Set(entries.compactMap(\.id))
        for product in products {
            guard let trialOf = product.trialOf, !ids.contains(trialOf) else { continue }
            problems.append("\(product.name): trial_of \"\(trialOf)\" names no entitlement of this file")
        }
        return (entitlements.sorted { $0.id < $1.id }, problems)
    }
}
