import Foundation
import Logging
import Settings

/// Writes one JSON object per line to standard error, for log shippers (`LOG_FORMAT=json`).
public struct JSONLogHandler: LogHandler {
    /// Shared across copies: stderr writes from several threads must not interleave.
    private static let lock = NSLock()

    private let label: String
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    /// Metadata of the current task (a trace or request id) added to every line.
    public var metadataProvider: Logger.MetadataProvider?

    /// Creates a handler for one logger label.
    public init(label: String, logLevel: Logger.Level = .info, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.logLevel = logLevel
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: [String: Any] = [
            "ts": ISO8601DateFormatter.string(
                from: Date(), timeZone: .gmt, formatOptions: [.withInternetDateTime, .withFractionalSeconds]),
            "level": event.level.rawValue,
            "label": label,
            "message": event.message.description,
        ]
        let merged = (metadataProvider?.get() ?? [:])
            .merging(metadata) { _, new in new }
            .merging(event.metadata ?? [:]) { _, new in new }
        for (key, value) in merged { object[key] = Self.plain(value) }
        guard var line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return
        }
        line.append(UInt8(ascii: "\n"))
        Self.lock.lock()
        FileHandle.standardError.write(line)
        Self.lock.unlock()
    }

    private static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let string): return string
        case .stringConvertible(let convertible): return convertible.description
        case .array(let values): return values.map(plain)
        case .dictionary(let values): return values.mapValues(plain)
        }
    }
}

extension LoggingSystem {
    /// Bootstraps logging once per process in the configured format and level; both formats
    /// keep `metadataProvider`'s metadata (task-local ids) on every line.
    public static func bootstrap(
        format: ServiceConfiguration.LogFormat, level: Logger.Level, metadataProvider: Logger.MetadataProvider? = nil
    ) {
        bootstrap(
            { label, provider in
                switch format {
                case .json:
                    return JSONLogHandler(label: label, logLevel: level, metadataProvider: provider)
                case .text:
                    var handler = StreamLogHandler.standardError(label: label, metadataProvider: provider)
                    handler.logLevel = level
                    return handler
                }
            }, metadataProvider: metadataProvider)
    }
}
