/// An app version as dot-separated numbers (`1.9`, `10.1`), compared number by number, a
/// missing number counting as 0 (`2` = `2.0`).
///
/// Text with anything but digits between the dots (`2.0b1`, `1..2`, empty) is not a dotted
/// version: it compares with nothing, so a version Apple writes oddly never grandfathers anyone.
public struct DottedVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numbers, as written.
    public let components: [Int]

    /// Parses `text`; nil unless it is one or more groups of at most 9 digits separated by dots.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(part) else { return nil }
            numbers.append(number)
        }
        guard !numbers.isEmpty, numbers.count <= 16 else { return nil }
        components = numbers
    }

    public var description: String { components.map(String.init).joined(separator: ".") }

    public static func < (lhs: DottedVersion, rhs: DottedVersion) -> Bool {
        let count = max(lhs.components.count, rhs.components.count)
        for index in 0..<count {
            let a = index < lhs.components.count ? lhs.components[index] : 0
            let b = index < rhs.components.count ? rhs.components[index] : 0
            if a != b { return a < b }
        }
        return false
    }

    public static func == (lhs: DottedVersion, rhs: DottedVersion) -> Bool {
        !(lhs < rhs) && !(rhs < lhs)
    }

    public func hash(into hasher: inout Hasher) {
        var trimmed = components
        while trimmed.count > 1, trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
    }
}
