import CatalogFiles
import Foundation
import Subscriptions

/// Builders of catalog file text, so each test states only what it is about.
enum CatalogText {
    /// A JSON string literal, or nothing when `value` is `nil` (the field is left out).
    private static func field(_ name: String, _ value: String?) -> String? {
        value.map { "\"\(name)\": \"\($0)\"" }
    }

    /// One product object; `nil` leaves a field out, `intro` and `extra` are raw JSON.
    static func product(
        id: String? = "com.example.pro.monthly",
        bundle: String? = "com.example.app",
        type: String? = "auto_renewable",
        group: String? = "20500000",
        period: String? = "P1M",
        intro: String? = nil,
        extra: String? = nil
    ) -> String {
        let fields = [
            field("product_id", id), field("bundle_id", bundle), field("type", type),
            field("subscription_group_id", group), field("period", period),
            intro.map { "\"intro_offer\": \($0)" }, extra,
        ]
        return "{" + fields.compactMap { $0 }.joined(separator: ", ") + "}"
    }

    /// One intro offer object; `price` is raw JSON (`"\"4.99\""` or `4.99`), `nil` leaves a field out.
    static func offer(mode: String? = "free_trial", period: String? = "P1W", periods: String? = "1", price: String? = "\"0.00\"") -> String
    {
        let fields = [
            field("payment_mode", mode), field("period", period),
            periods.map { "\"periods\": \($0)" }, price.map { "\"price\": \($0)" },
        ]
        return "{" + fields.compactMap { $0 }.joined(separator: ", ") + "}"
    }

    /// A whole file holding `products`.
    static func file(_ products: String...) -> [UInt8] {
        Array("{\"products\": [\(products.joined(separator: ",\n"))]}".utf8)
    }
}

extension Result where Failure == CatalogProblems {
    /// The problem lines, empty on success.
    var problemLines: [String] {
        if case .failure(let problems) = self { return problems.lines }
        return []
    }

    /// The value on success.
    var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}
