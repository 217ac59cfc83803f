import Foundation

/// Whether an answer of a Get Retention Message endpoint is a `RealtimeResponseBody` the App
/// Store can use: a JSON object that is empty (show the default message) or holds exactly
/// one of `message`, `alternateProduct` and `promotionalOffer`, itself an object. Keys Apple
/// added later are ignored.
enum RealtimeResponseCheck {
    /// The mutually exclusive answers.
    static let choices = ["message", "alternateProduct", "promotionalOffer"]

    /// Whether `body` is such an answer.
    static func isValid(_ body: [UInt8]) -> Bool {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else { return false }
        let given = choices.compactMap { key in object[key].flatMap { $0 is NSNull ? nil : $0 } }
        switch given.count {
        case 0: return true
        case 1: return given[0] is [String: Any]
        default: return false
        }
    }
}
