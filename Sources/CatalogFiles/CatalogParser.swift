import Subscriptions
/// Reads a product catalog file (DESIGN.md, "Product catalog file") and checks Apple's rules.
///
/// Pure: bytes in, products or every problem out. A file with any problem yields no
/// products, so an import can change nothing.
public enum CatalogParser {
    /// Parses the JSON format `{"products":[{...}]}`; unknown keys are ignored.
    public static func parse(json: [UInt8]) -> Result<[Product], CatalogProblems> {
        switch entries(json: json) {
        case .success(let entries): validate(entries)
        case .failure(let problems): .failure(problems)
        }
    }

    /// Parses CSV with a header row naming the columns `product_id,bundle_id,type,
    /// subscription_group_id,period,intro_payment_mode,intro_period,intro_periods,intro_price`
    /// (any order; unknown columns ignored; the first three are required).
    public static func parse(csv: [UInt8]) -> Result<[Product], CatalogProblems> {
        switch entries(csv: csv) {
        case .success(let entries): validate(entries)
        case .failure(let problems): .failure(problems)
        }
    }

    /// Parses CSV when `fileName` ends in `.csv` (any case), JSON otherwise.
    public static func parse(_ bytes: [UInt8], fileName: String) -> Result<[Product], CatalogProblems> {
        fileName.lowercased().hasSuffix(".csv") ? parse(csv: bytes) : parse(json: bytes)
    }

    /// Checks every entry and the ids across entries; products only when nothing is wrong.
    static func validate(_ entries: [CatalogEntry]) -> Result<[Product], CatalogProblems> {
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
        return lines.isEmpty ? .success(products) : .failure(CatalogProblems(lines: lines))
    }
}
