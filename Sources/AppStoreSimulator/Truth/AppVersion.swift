/// Application versions (`1.9`, `10.1`) compared as dot-separated numbers, the way the
/// grandfather rule compares a customer's original application version with `before_version`.
public enum AppVersion {
    /// The version's components as digit strings without leading zeros; `nil` when a
    /// component is empty or not all ASCII digits (the version is then not comparable).
    public static func components(_ version: String) -> [Substring]? {
        var parts: [Substring] = []
        for part in version.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            let trimmed = part.drop { $0 == "0" }
            parts.append(trimmed.isEmpty ? "0" : trimmed)
        }
        return parts
    }

    /// Whether `version` is lower than `other`, component by component as integers of any
    /// size (missing components count as 0, so `2` equals `2.0`); `false` when either is not
    /// comparable.
    public static func isLower(_ version: String, than other: String) -> Bool {
        guard let left = components(version), let right = components(other) else { return false }
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : "0"
            let b = index < right.count ? right[index] : "0"
            if a.count != b.count { return a.count < b.count }
            if a != b { return a < b }
        }
        return false
    }
}
