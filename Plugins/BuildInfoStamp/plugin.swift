import Foundation
import PackagePlugin

/// Stamps the commit the executables are built from into `GeneratedCommit.swift`, before
/// every build: `SUBSCRIPTIOND_COMMIT` when set (a release build from a tarball), else
/// `git rev-parse` of the package (with `-dirty` when the work tree differs from it), else
/// `unknown`. The file is rewritten only when its text changes, so an unchanged commit
/// recompiles nothing.
@main
struct BuildInfoStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("Generated")
        let script = #"""
            root="$1"; out="$2"; mkdir -p "$out"
            commit="${SUBSCRIPTIOND_COMMIT:-}"
            if [ -z "$commit" ]; then
                commit="$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
                if [ "$commit" != unknown ] && ! git -C "$root" diff --quiet HEAD -- 2>/dev/null; then commit="$commit-dirty"; fi
            fi
            text="/// Generated before every build by the BuildInfoStamp plugin.
            enum GeneratedCommit { static let value = \"$commit\" }"
            file="$out/GeneratedCommit.swift"
            [ -f "$file" ] && [ "$(cat "$file")" = "$text" ] || printf '%s\n' "$text" > "$file"
            """#
        return [
            .prebuildCommand(
                displayName: "Stamping the commit into BuildInfo",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "stamp", context.package.directoryURL.path, output.path],
                outputFilesDirectory: output
            )
        ]
    }
}
