/// Pages of 20 over a list, with an opaque-looking offset token (revision or pagination token).
struct APIPage<Item> {
    /// Apple's page size for history endpoints.
    static var size: Int { 20 }

    var items: ArraySlice<Item>
    var nextToken: String
    var hasMore: Bool

    /// The page starting at `token` (`nil`: the first); `invalid` when the token is not one of ours.
    static func slice(_ all: [Item], token: String?, invalid: APIError) throws(APIError) -> APIPage {
        var start = 0
        if let token {
            guard token.hasPrefix("p"), let offset = Int(token.dropFirst()), (0...all.count).contains(offset) else { throw invalid }
            start = offset
        }
        let end = min(all.count, start + size)
        return APIPage(items: all[start..<end], nextToken: "p\(end)", hasMore: end < all.count)
    }
}
