/// What a binary is: its version (CHANGELOG.md) and the commit it was built from.
public enum BuildInfo {
    /// The release version; bumped with each CHANGELOG entry.
    public static let version = "0.10.0"
    /// The commit the binary was built from (`-dirty`: with uncommitted changes; `unknown`
    /// outside a git checkout without `SUBSCRIPTIOND_COMMIT`).
    public static let commit = GeneratedCommit.value

    /// `--version`'s answer: `NAME VERSION (commit COMMIT)`.
    public static func versionLine(_ name: String) -> String {
        "\(name) \(version) (commit \(commit))"
    }
}
