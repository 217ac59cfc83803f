import Subscriptions

/// Every problem found in a catalog file, one human-readable line each.
///
/// Each line starts with the product id, or with the entry's position (`products[2]`,
/// `line 4`) when the id is missing, so an operator can fix the whole file in one pass.
public struct CatalogProblems: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, in file order.
    public var lines: [String]

    /// Problems from their lines.
    public init(lines: [String]) {
        self.lines = lines
    }

    /// The lines joined by newlines.
    public var description: String {
        lines.joined(separator: "\n")
    }
}
