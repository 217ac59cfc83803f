import Foundation

/// Locates the shared real-world fixtures: the package root is the folder above this file
/// holding `Package.swift`; fixtures sit at `<root>/../shared/fixtures/realworld`.
enum FixtureFiles {
    struct NotFound: Error {}

    static func root() throws -> URL {
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
        throw NotFound()
    }

    /// The path of `fixtures/realworld/<name>`.
    static func path(_ name: String) throws -> String {
        try root().appendingPathComponent(name).path
    }

    /// The `signedPayload` of a `{"signedPayload": "..."}` fixture.
    static func signedPayload(_ name: String) throws -> String {
        let data = try Data(contentsOf: root().appendingPathComponent(name))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let jws = object["signedPayload"] as? String
        else { throw NotFound() }
        return jws
    }
}
