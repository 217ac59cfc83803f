/// Comparisons whose running time does not reveal the position of the first difference.
public enum ConstantTime {
    /// True when both byte sequences are equal; examines every byte of the longer one.
    public static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        let length = max(lhs.count, rhs.count)
        var difference = UInt8(truncatingIfNeeded: lhs.count ^ rhs.count) | (lhs.count == rhs.count ? 0 : 1)
        for index in 0..<length {
            let left = index < lhs.count ? lhs[index] : 0
            let right = index < rhs.count ? rhs[index] : 0
            difference |= left ^ right
        }
        return difference == 0
    }
}
