import Foundation
import Hummingbird
import NIOCore

/// Reads a JSON request body with the contract's errors, the same way for every route:
/// 413 before reading when `Content-Length` is over the limit, 415 unless the content type
/// is JSON, 413 when the body turns out longer than the limit while being read.
enum RequestBody {
    /// The body's bytes, at most `maxBytes`.
    static func json(_ request: Request, maxBytes: Int) async throws -> [UInt8] {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBytes {
            throw APIError.tooLarge(maxBytes)
        }
        try checkContentType(request.headers[.contentType])
        do {
            return Array(try await request.body.collect(upTo: maxBytes).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw APIError.tooLarge(maxBytes)
        }
    }

    /// Checks the content type is JSON (`application/json`, any parameters).
    static func checkContentType(_ value: String?) throws(APIError) {
        guard let value, isJSON(contentType: value) else {
            throw APIError.unsupportedMediaType("the body must be JSON (Content-Type: application/json)")
        }
    }

    /// Whether a `Content-Type` value names JSON: `application/json` in any case, with any
    /// parameters, blanks (tab and Unicode space separators) allowed around the type.
    ///
    /// Every request asks, so the header as clients send it, `application/json` or
    /// `application/json; charset=utf-8`, is matched on its bytes; anything else takes the
    /// general rule through Foundation, which accepts exactly the same values, only slower.
    static func isJSON(contentType value: String) -> Bool {
        let mediaType = "application/json".utf8
        let bytes = value.utf8
        if bytes.count >= mediaType.count,
            bytes.prefix(mediaType.count).elementsEqual(mediaType, by: { asciiLowercase($0) == $1 }),
            bytes.count == mediaType.count || bytes.dropFirst(mediaType.count).first == UInt8(ascii: ";")
        {
            return true
        }
        return value.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 0x20 : byte
    }
}
