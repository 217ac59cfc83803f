import Foundation

/// Host names that can only mean this machine.
enum LoopbackHost {
    /// True for `localhost`, `127.0.0.0/8` and `::1` (bracketed or not).
    static func contains(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: ["[", "]"])
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
