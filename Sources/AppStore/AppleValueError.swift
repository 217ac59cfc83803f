/// A field Apple's format defines, present with a value that format does not allow (a date
/// outside the App Store's lifetime, a fractional millisecond count, hex digits, …).
///
/// Unlike an unexpected *kind* of value, which lenient decoding reads as absent, such a value
/// makes the whole document malformed: intake answers 400 naming the field, and an upstream
/// answer carrying one ends the notification `dead` with the reason. The value itself is
/// never quoted, since it may come from a receipt.
public struct AppleValueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field's path in the document, e.g. `latest_receipt_info.0.expires_date_ms`.
    public let field: String
    /// Why the value is refused, e.g. "is not a date between 2007 and 9999".
    public let problem: String

    /// Creates the error for a field path.
    public init(field: String, problem: String) {
        self.field = field
        self.problem = problem
    }

    public var description: String { "\(field) \(problem)" }
}

extension AppleValueError {
    /// The dotted path of a key under a decoder's coding path (array positions as numbers).
    static func path(_ codingPath: [any CodingKey], _ key: String) -> String {
        (codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } + [key]).joined(separator: ".")
    }
}

extension AppleValueError {
    /// Runs a lenient read: nil when it fails, except that an `AppleValueError` is thrown on.
    static func passing<T>(_ read: () throws -> T?) throws -> T? {
        do {
            return try read()
        } catch let error as AppleValueError {
            throw error
        } catch {
            return nil
        }
    }
}
