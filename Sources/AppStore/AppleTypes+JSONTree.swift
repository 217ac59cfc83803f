import Foundation
import JSON

extension NotificationV1 {
    /// Decodes a body already parsed by `StrictJSONParser` (see `JSONValue.decode(_:)`).
    public static func decode(from value: JSONValue) throws -> NotificationV1 {
        try value.decode(NotificationV1.self)
    }
}

extension VerifyReceiptResponse {
    /// Decodes a response already parsed by `StrictJSONParser` (see `JSONValue.decode(_:)`).
    public static func decode(from value: JSONValue) throws -> VerifyReceiptResponse {
        try value.decode(VerifyReceiptResponse.self)
    }
}
