/// A coding key built from any string, so decoders can try several spellings of one field
/// (Apple renamed and respelled fields over the years) and ignore the rest.
struct AppleKey: CodingKey, Hashable {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) {
        stringValue = name
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}
