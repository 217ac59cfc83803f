import Foundation

extension ISO8601Duration {
    /// Parses the date part of an ISO 8601 duration by hand: `DateComponentsFormatter` is
    /// not available everywhere and accepts more than App Store periods need.
    static func parse(_ text: String) -> ISO8601Duration? {
        var rest = Substring(text)
        guard rest.first == "P" || rest.first == "p" else { return nil }
        rest = rest.dropFirst()
        let designators: [Character] = ["Y", "M", "W", "D"]
        var values = [0, 0, 0, 0]
        var next = 0  // designators must appear in order, each at most once
        while !rest.isEmpty {
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            guard !digits.isEmpty, digits.count <= 9, let value = Int(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let letter = rest.first?.uppercased().first,
                let index = designators.firstIndex(of: letter), index >= next
            else { return nil }
            values[index] = value
            next = index + 1
            rest = rest.dropFirst()
        }
        return ISO8601Duration(years: values[0], months: values[1], weeks: values[2], days: values[3])
    }
}
