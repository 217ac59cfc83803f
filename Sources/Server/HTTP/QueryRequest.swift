import Foundation
import Hummingbird

/// Reads a `/v1` JSON request body into a dictionary, with the contract's 400/413/415 errors.
enum QueryRequest {
    static func object(_ request: Request, maxBytes: Int) async throws -> [String: Any] {
        let body = try await RequestBody.json(request, maxBytes: maxBytes)
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            throw APIError.malformed("the body must be a JSON object")
        }
        return object
    }

    /// A required non-empty string field of at most `maxLength` characters.
    static func string(_ object: [String: Any], _ key: String, maxLength: Int = 512) throws -> String {
        guard let value = object[key] as? String, !value.isEmpty else { throw APIError.malformed("\(key) is required (a non-empty string)") }
        guard value.count <= maxLength else { throw APIError.malformed("\(key) is longer than \(maxLength) characters") }
        guard !value.unicodeScalars.contains("\u{0}") else { throw APIError.malformed("\(key) contains a NUL character") }
        return value
    }

    /// An optional string field; present but not a non-empty string is an error.
    static func optionalString(_ object: [String: Any], _ key: String, maxLength: Int = 512) throws -> String? {
        guard object[key] != nil, !(object[key] is NSNull) else { return nil }
        return try string(object, key, maxLength: maxLength)
    }
}
