import Foundation

/// Reads a file holding a secret (a `.p8` key, a shared secret), refusing one that other
/// users of the host may read: a secret every local account can read is no secret, and the
/// operator hears it at startup, with the command that fixes it, rather than never.
enum SecretFile {
    /// The permission bits "other users" hold: read, write, execute.
    static let otherUsersBits = 0o007
    /// The permission bits the file's group and other users hold: a TLS private key is the
    /// server's identity, readable by its owner alone.
    static let groupAndOtherUsersBits = 0o077

    /// The file's bytes. Throws a ``ConfigurationError`` for `setting` when the file cannot
    /// be read, or when other users may read or write it.
    static func read(_ path: String, setting: String) throws -> Data {
        try checkPermissions(path, setting: setting, forbidden: otherUsersBits)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(setting, "names \(path), which cannot be read")
        }
        return data
    }

    /// Throws a ``ConfigurationError`` for `setting` when the file cannot be read, or when its
    /// mode grants any of the `forbidden` bits (naming the mode and the `chmod` that fixes it).
    static func checkPermissions(_ path: String, setting: String, forbidden: Int) throws {
        guard FileManager.default.isReadableFile(atPath: path),
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue
        else { throw ConfigurationError(setting, "names \(path), which cannot be read") }
        guard permissions & forbidden != 0 else { return }
        let mode = String(permissions & 0o777, radix: 8)
        let who = forbidden & 0o070 != 0 ? "its group or other users" : "other users"
        let fix = forbidden & 0o070 != 0 ? "chmod 600" : "chmod o-rwx"
        throw ConfigurationError(setting, "names \(path), which \(who) may read or write (mode \(mode)): run \(fix) \(path)")
    }
}
