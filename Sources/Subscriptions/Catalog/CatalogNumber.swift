/// How a number in a catalog (a price, a count of periods, a group id written as a number)
/// becomes the text the catalog keeps.
public enum CatalogNumber {
    /// Whole numbers without a fraction (`3`, not `3.0`), others in their shortest
    /// round-tripping form (`4.99`).
    public static func text(of number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return String(number)
    }
}
