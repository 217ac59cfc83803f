import Foundation

/// Reads a file holding a secret (a `.p8` key, a shared secret), refusing one that other
/// users of the host may read: a secret every local account can read is no secret, and the
/// operator hears it at startup, with the command that fixes it, rather than never.
enum SecretFile {
    /// The permission bits "other users" hold: read, write, execute.
    static let otherUsersBits = 0o007

    /// The file's bytes. Throws a ``ConfigurationError`` for `setting` when the file cannot
    /// be read, or when other users may read or write it.
    static func read(_ path: String, setting: String) throws -> Data {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue,
            let data = FileManager.default.contents(atPath: path)
        else { throw ConfigurationError(setting, "names \(path), which cannot be read") }
        if permissions & otherUsersBits != 0 {
            let mode = String(permissions & 0o777, radix: 8)
            throw ConfigurationError(setting, "names \(path), which other users may read (mode \(mode)): run chmod o-rwx \(path)")
        }
        return data
    }
}
