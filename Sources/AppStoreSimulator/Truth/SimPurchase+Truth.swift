extension SimPurchase {
    /// The purchase in the truth: DESIGN.md's purchase fields the simulator knows.
    var truthJSON: JSONValue {
        .object([
            ("transaction_id", .string(transactionID)),
            ("product_id", .string(productID)),
            ("type", .string(kind.rawValue)),
            ("purchase_date", .string(AppleDate.rfc3339(purchaseDate))),
            ("revoked_at", cancellationDate.map(AppleDate.rfc3339).json),
            ("quantity", .int(quantity)),
        ])
    }
}
