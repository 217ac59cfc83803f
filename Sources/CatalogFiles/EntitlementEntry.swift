/// One entitlement as a file states it, before any rule is checked.
struct EntitlementEntry: Sendable {
    /// Where it is (`entitlements[1]`): names it when the id is missing.
    var position: String
    var id: String?
    var productIDs: [String] = []
    /// Shape problems met while reading, without the prefix.
    var readProblems: [String] = []

    /// The prefix of this entry's problem lines.
    var name: String { "entitlement \(id ?? position)" }
}
