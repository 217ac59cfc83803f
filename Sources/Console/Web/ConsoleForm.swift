import Foundation
import Hummingbird

/// A submitted form (`application/x-www-form-urlencoded`): each field's first value, read
/// from a body of at most `maximumBytes`.
struct ConsoleForm: Sendable {
    /// The longest form body read; a larger one is refused (413) before it is parsed.
    static let maximumBytes = 64 * 1_024

    let fields: [String: String]

    /// The form in `request`'s body.
    static func read(_ request: Request) async throws -> ConsoleForm {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumBytes)
        } catch {
            throw ConsolePageError(.contentTooLarge, "The form is larger than \(maximumBytes / 1_024) kB.")
        }
        return ConsoleForm(fields: parse(String(buffer: buffer)))
    }

    /// The fields of `text` (`a=1&b=two+words`): `+` is a space, `%XX` a byte; a field named
    /// twice keeps its first value; undecodable fields are skipped.
    static func parse(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]) else { continue }
            let value = parts.count > 1 ? decode(parts[1]) : ""
            guard let value, fields[name] == nil else { continue }
            fields[name] = value
        }
        return fields
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// The field `name`, trimmed; nil when absent or empty.
    subscript(_ name: String) -> String? {
        guard let value = fields[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }
}

/// A console request that gets an error page: its status and the sentence it shows.
struct ConsolePageError: Error {
    let status: HTTPResponse.Status
    let message: String

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }
}
