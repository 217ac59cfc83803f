/// The part of a URL that may go into a log: scheme, host and port.
///
/// Userinfo (`https://user:password@host`) is a credential, and a path or query may be one
/// too (webhook URLs often carry their token in the path), so logs name the origin only.
enum LoggedURL {
    /// `scheme://host[:port]` of `url`, without userinfo, path, query or fragment.
    static func origin(of url: String) -> String {
        let parts = url.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return "(not a URL)" }
        let authority = parts[1].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        return "\(parts[0])://\(hostAndPort)"
    }
}
