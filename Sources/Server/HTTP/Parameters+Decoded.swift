import Foundation
import Hummingbird

extension Parameters {
    /// The path parameter `name` as its text: percent-decoded (a client writes `user 42` as
    /// `user%2042`, `a/b` as `a%2Fb`). A sequence that does not decode is the caller's mistake.
    func requireDecoded(_ name: String) throws -> String {
        let raw = try require(name)
        guard let decoded = raw.removingPercentEncoding, !decoded.isEmpty else {
            throw APIError.malformed("\(name) is not valid percent-encoded text: \(raw)")
        }
        return decoded
    }
}
