/// One HTTP header field, kept in the order it was sent or received.
public struct HTTPHeader: Sendable, Hashable {
    /// The field name, e.g. `Content-Type`; compare it case-insensitively.
    public var name: String
    /// The field value, without surrounding whitespace.
    public var value: String

    /// Creates a header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension [HTTPHeader] {
    /// The value of the first field called `name`, compared case-insensitively.
    public func first(named name: String) -> String? {
        let wanted = name.lowercased()
        return first { $0.name.lowercased() == wanted }?.value
    }
}
