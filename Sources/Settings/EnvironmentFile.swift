import Foundation

/// A service environment file as systemd's `EnvironmentFile=` reads it (and
/// `Deploy/subscriptiond.env.example` is written): `KEY=VALUE` lines, blank lines and `#`
/// comments ignored, an optional `export `, and a value in matching single or double quotes
/// taken without them. `subscriptionctl --env-file` reads the service's own file with it.
public enum EnvironmentFile {
    /// The variables of `text`, or an error naming the first line that is not `KEY=VALUE`.
    public static func parse(_ text: String) throws -> [String: String] {
        var variables: [String: String] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst("export ".count)).trimmingCharacters(in: .whitespaces) }
            guard let equals = line.firstIndex(of: "="),
                case let key = String(line[..<equals]).trimmingCharacters(in: .whitespaces),
                !key.isEmpty, key.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }),
                key.first.map({ !$0.isNumber }) ?? false
            else {
                throw ConfigurationError("--env-file", "line \(index + 1) is not KEY=VALUE")
            }
            var value = String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            variables[key] = value
        }
        return variables
    }

    /// The variables of the file at `path`.
    public static func load(path: String) throws -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("--env-file", "names \(path), which cannot be read")
        }
        do {
            return try parse(String(decoding: data, as: UTF8.self))
        } catch let error as ConfigurationError {
            throw ConfigurationError("--env-file", "\(path): \(error.problem)")
        }
    }
}
