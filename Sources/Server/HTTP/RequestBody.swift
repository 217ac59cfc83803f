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
        guard let value, value.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "application/json" else {
            throw APIError.unsupportedMediaType("the body must be JSON (Content-Type: application/json)")
        }
    }
}
