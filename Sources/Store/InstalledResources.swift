import Foundation

/// Where files shipped with subscriptiond (`Schema/`, `Certificates/`) are looked for.
public enum InstalledResources {
    /// `name` in the working directory, beside or above the executable (up to the checkout
    /// that `swift build` puts it under, or in `share/subscriptiond` of the prefix an
    /// installation put it under), then in the system share directories; in that order.
    public static func candidates(_ name: String) -> [URL] {
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(name)]
        // `swift build` puts executables in .build/<triple>/debug: look up to the checkout;
        // `make install PREFIX=P` puts them in P/bin and the files in P/share/subscriptiond.
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(directory.appendingPathComponent(name))
            candidates.append(directory.appendingPathComponent("share/subscriptiond").appendingPathComponent(name))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: "/usr/local/share/subscriptiond").appendingPathComponent(name))
        candidates.append(URL(fileURLWithPath: "/usr/share/subscriptiond").appendingPathComponent(name))
        return candidates
    }

    /// The running executable's real path: /proc/self/exe where there is one (a binary found
    /// through PATH has only its name in `argv[0]`), else `argv[0]` resolved.
    private static var executable: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    }
}
