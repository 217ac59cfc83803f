import Subscriptions

/// Reads a product catalog file (DESIGN.md, "Product catalog file" and "Entitlements,
/// purchases and ownership") and checks Apple's rules and the entitlements'.
///
/// Pure: bytes in, a catalog or every problem out. A file with any problem yields nothing,
/// so an import can change nothing.
public enum CatalogParser {
    /// Parses the JSON format `{"products":[{...}], "entitlements":[{...}]}`; unknown keys
    /// are ignored.
    public static func parse(json: [UInt8]) -> Result<CatalogFile, CatalogProblems> {
        switch entries(json: json) {
        case .success(let entries): validate(entries.products, entitlements: entries.entitlements)
        case .failure(let problems): .failure(problems)
        }
    }

    /// Parses CSV with a header row naming the columns `product_id,bundle_id,type,
    /// subscription_group_id,period,intro_payment_mode,intro_period,intro_periods,intro_price`
    /// (any order; unknown columns ignored; the first three are required).
    /// A CSV file has no entitlements: importing it leaves the stored ones alone.
    public static func parse(csv: [UInt8]) -> Result<CatalogFile, CatalogProblems> {
        switch entries(csv: csv) {
        case .success(let entries): validate(entries, entitlements: nil)
        case .failure(let problems): .failure(problems)
        }
    }

    /// Parses CSV when `fileName` ends in `.csv` (any case), JSON otherwise.
    public static func parse(_ bytes: [UInt8], fileName: String) -> Result<CatalogFile, CatalogProblems> {
        fileName.lowercased().hasSuffix(".csv") ? parse(csv: bytes) : parse(json: bytes)
    }

    /// Checks every entry, the ids across entries and the entitlements; a catalog only when
    /// nothing is wrong.
    static func validate(_ entries: [CatalogEntry], entitlements: [EntitlementEntry]?) -> Result<CatalogFile, CatalogProblems> {
        var products: [Product] = []
        var lines: [String] = []
        var firstPosition: [String: String] = [:]
        for entry in entries {
            var (product, problems) = CatalogValidator.check(entry)
            if let id = entry.productID {
                if let first = firstPosition[id] {
                    problems.append("duplicate product id (first at \(first))")
                } else {
                    firstPosition[id] = entry.position
                }
            }
            lines += problems.map { "\(entry.name): \($0)" }
            if let product, problems.isEmpty { products.append(product) }
        }
        let checked = EntitlementValidator.check(entitlements ?? [], products: entries)
        lines += checked.problems
        guard lines.isEmpty else { return .failure(CatalogProblems(lines: lines)) }
        return .success(CatalogFile(products: products, entitlements: entitlements == nil ? nil : checked.entitlements))
    }
}
