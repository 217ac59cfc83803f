/// Hands out Apple-looking numeric ids (16 digits, like `1000000218147651`).
///
/// Ids depend only on the seed, the customer's number and the order of purchases, so a
/// scenario built twice gets the same ids, and two seeds rarely share a range.
struct IDAllocator: Sendable {
    private let base: Int64
    private var transactions: Int64 = 0
    private var lineItems: Int64 = 0

    /// Ids for the `customerNumber`-th customer of a simulator seeded with `seed`.
    init(seed: UInt64, customerNumber: Int) {
        let salt = Int64(SeededRandom.fnv1a("ids-\(seed)") % 8_000_000)
        base = 1_000_000_000_000_000 + salt * 1_000_000_000 + Int64(customerNumber) * 1_000
    }

    /// The next `transaction_id`.
    mutating func nextTransactionID() -> String {
        transactions += 1
        return String(base + transactions)
    }

    /// The customer's `appTransactionId` (one per Apple account and app), shaped like the
    /// other ids and clear of them.
    var appTransactionID: String {
        String(base + 999)
    }

    /// The next `web_order_line_item_id` (one per subscription period).
    mutating func nextLineItemID() -> String {
        lineItems += 1
        return String(base + 500 + lineItems)
    }
}
