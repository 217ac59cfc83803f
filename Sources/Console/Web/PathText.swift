import Foundation

/// Ids in console paths: app user ids and transaction ids are text an app or Apple chose, so
/// a link percent-encodes everything but RFC 3986's unreserved characters, and a route
/// decodes what arrives.
enum PathText {
    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// `text` as one path segment.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// `text` as a query value.
    static func query(_ text: String) -> String {
        segment(text)
    }

    /// The text of a path segment as it arrived (percent-decoded; nil when it does not decode).
    static func decoded(_ segment: String) -> String? {
        segment.removingPercentEncoding
    }
}
