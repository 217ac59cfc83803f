import Foundation

/// Locates the shared real-world fixtures from this source file's real location.
///
/// `#filePath` is resolved through symlinks, then walked up to the package root (the folder
/// with `Package.swift` whose sibling `../shared/fixtures/realworld` exists), so the tests
/// find the fixtures from the main package and from a scratch package that links this folder.
enum Fixtures {
    static let root: URL = {
        let manager = FileManager.default
        var dir = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while dir.pathComponents.count > 1 {
            let candidate = dir.deletingLastPathComponent().appendingPathComponent("shared/fixtures/realworld")
            if manager.fileExists(atPath: dir.appendingPathComponent("Package.swift").path),
                manager.fileExists(atPath: candidate.path)
            {
                return candidate
            }
            dir.deleteLastPathComponent()
        }
        fatalError("shared/fixtures/realworld not found above \(#filePath)")
    }()

    /// The bytes of `fixtures/realworld/<path>`.
    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(path)))
    }

    /// The `.json` file names in one fixture folder, sorted.
    static func jsonFiles(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".json") }
            .sorted()
    }
}

/// The date for an Apple millisecond timestamp, as tests write them.
func ms(_ millis: Double) -> Date {
    Date(timeIntervalSince1970: millis / 1000)
}

/// Decodes a JSON literal written in a test.
func json(_ text: String) -> [UInt8] {
    Array(text.utf8)
}
