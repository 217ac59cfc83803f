import Foundation

/// Files the CLI tests hand to `subscriptionctl`, in the temporary directory.
enum TemporaryFile {
    /// Writes `text` to a new file whose name ends in `name` (`catalog.json`) and returns its path.
    static func write(_ text: String, name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
        try Data(text.utf8).write(to: url)
        return url.path
    }
}
