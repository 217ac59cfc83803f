import Foundation

/// Where files shipped with subscriptiond (`Schema/`, `Certificates/`) are looked for.
public enum InstalledResources {
    /// `name` in the working directory, beside or above the executable (up to the checkout
    /// that `swift build` puts it under), then in the system share directories; in that order.
    public static func candidates(_ name: String) -> [URL] {
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(name)]
        // `swift build` puts executables in .build/<triple>/debug: look up to the checkout.
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(directory.appendingPathComponent(name))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: "/usr/local/share/subscriptiond").appendingPathComponent(name))
        candidates.append(URL(fileURLWithPath: "/usr/share/subscriptiond").appendingPathComponent(name))
        return candidates
    }
}
