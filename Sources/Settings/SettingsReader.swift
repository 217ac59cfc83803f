import Foundation
import Logging

/// Reads typed settings from environment-style key/value pairs, with defaults, turning
/// every malformed value into a `ConfigurationError` that names the variable.
public struct SettingsReader: Sendable {
    private let environment: [String: String]
    private let defaults: [String: String]

    /// Creates a reader over `environment`, falling back to `defaults` for absent or empty values.
    public init(environment: [String: String], defaults: [(name: String, defaultValue: String?)]) {
        self.environment = environment
        var table: [String: String] = [:]
        for (name, value) in defaults { if let value { table[name] = value } }
        self.defaults = table
    }

    /// The value, or its default; nil when neither is set. Empty counts as unset.
    public func string(_ name: String) -> String? {
        if let value = environment[name], !value.isEmpty { return value }
        return defaults[name]
    }

    /// The value, or an error when it is unset.
    public func required(_ name: String) throws -> String {
        guard let value = string(name) else { throw ConfigurationError(name, "is not set") }
        return value
    }

    /// An integer within `range`.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int {
        let text = try required(name)
        guard let value = Int(text), range.contains(value) else {
            throw ConfigurationError(name, "must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// An `https://` URL, or an `http://` one to a loopback host (a local stand-in such as
    /// appstore-sim): anywhere else a plain-text URL would carry secrets in clear.
    public func upstreamURL(_ name: String) throws -> String {
        try Self.validatedURL(try required(name), setting: name)
    }

    /// The `upstreamURL` rule applied to a value read from anywhere (a configuration file).
    static func validatedURL(_ text: String, setting name: String) throws -> String {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
            scheme == "https" || scheme == "http"
        else {
            throw ConfigurationError(name, "must be an https:// URL, got '\(text)'")
        }
        if scheme == "http" && !LoopbackHost.contains(host) {
            throw ConfigurationError(name, "must use https:// (http:// is only allowed to 127.0.0.1, ::1 or localhost), got '\(text)'")
        }
        return text
    }

    /// `true` or `false` (also `1`/`0`, `yes`/`no`).
    public func boolean(_ name: String) throws -> Bool {
        let text = try required(name)
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw ConfigurationError(name, "must be true or false, got '\(text)'")
        }
    }

    /// `on` or `off` (also `true`/`false`, `1`/`0`, `yes`/`no`).
    public func `switch`(_ name: String) throws -> Bool {
        let text = try required(name)
        switch text.lowercased() {
        case "on", "true", "1", "yes": return true
        case "off", "false", "0", "no": return false
        default: throw ConfigurationError(name, "must be on or off, got '\(text)'")
        }
    }

    /// A bearer token of at least 16 characters, or nil when unset.
    public func token(_ name: String) throws -> String? {
        guard let token = string(name) else { return nil }
        guard token.count >= 16 else {
            throw ConfigurationError(name, "is too short: use at least 16 characters (e.g. `openssl rand -hex 32`)")
        }
        return token
    }

    /// One of an enumeration's raw values.
    public func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, _ type: Choice.Type) throws -> Choice
    where Choice.RawValue == String {
        let text = try required(name)
        guard let value = Choice(rawValue: text.lowercased()) else {
            let allowed = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError(name, "must be one of \(allowed), got '\(text)'")
        }
        return value
    }

    /// A swift-log level (`trace` … `critical`).
    public func logLevel(_ name: String) throws -> Logger.Level {
        let text = try required(name)
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw ConfigurationError(name, "must be one of trace, debug, info, notice, warning, error, critical, got '\(text)'")
        }
        return level
    }
}
