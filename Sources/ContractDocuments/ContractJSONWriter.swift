import AppStore
import CivilDate
import Foundation
import JSON

/// A read document (subscription, subscriber, eligibility): it writes its contract JSON
/// straight into bytes, the one way it is ever written.
///
/// The form is what `ContractJSON.encode` gives any other document (the tests hold the
/// bytes to what the documents' former `JSONEncoder` path wrote): keys in `String` order,
/// RFC 3339 UTC timestamps in whole seconds, the same escapes.
public protocol ContractJSONWritable: Sendable {
    /// Appends the document's compact JSON.
    func write(to writer: inout ContractJSONWriter)
}

extension ContractJSONWritable {
    /// The document as a JSON tree, to embed in a larger `Encodable` document (a webhook
    /// event, `subscriptionctl --json`): its own bytes parsed back, so it is still written once.
    public var jsonValue: JSONValue {
        // The writer only writes valid JSON; `null` would show a bug, never trap.
        (try? StrictJSONParser.parse(ContractJSONWriter.bytes(of: self))) ?? .null
    }
}

/// Builds compact contract JSON the way `ContractJSON.encode` (`JSONEncoder` with
/// `.sortedKeys`, `.withoutEscapingSlashes` and `.iso8601` dates) writes it, for the read
/// endpoints' documents, where `JSONEncoder` was the largest cost of an answer.
///
/// Callers write an object's keys in sorted order themselves.
public struct ContractJSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    /// Creates an empty writer with room for a typical answer.
    public init(capacity: Int = 1_024) {
        bytes.reserveCapacity(capacity)
    }

    /// The bytes of one document.
    public static func bytes(of document: some ContractJSONWritable) -> [UInt8] {
        var writer = ContractJSONWriter()
        document.write(to: &writer)
        return writer.bytes
    }

    /// Writes `{`, the members `body` writes, `}`.
    public mutating func object(_ body: (inout ContractJSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes `[`, the elements `body` writes, `]`.
    public mutating func array(_ body: (inout ContractJSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes an object member's key; the value written next belongs to it.
    public mutating func key(_ key: String) {
        separate()
        appendString(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a string, or `null`.
    public mutating func value(_ string: String?) {
        separate()
        if let string { appendString(string) } else { appendNull() }
        needsComma = true
    }

    /// Writes `true`, `false` or `null`.
    public mutating func value(_ flag: Bool?) {
        separate()
        if let flag { bytes.append(contentsOf: (flag ? "true" : "false").utf8) } else { appendNull() }
        needsComma = true
    }

    /// Writes an integer, or `null`.
    public mutating func value(_ number: Int?) {
        separate()
        if let number { bytes.append(contentsOf: String(number).utf8) } else { appendNull() }
        needsComma = true
    }

    /// Writes a timestamp as `JSONEncoder`'s `.iso8601` strategy does (whole seconds, UTC), or `null`.
    public mutating func value(_ date: Date?) {
        separate()
        if let date { appendDate(date) } else { appendNull() }
        needsComma = true
    }

    /// Writes an object of strings, keys in order.
    public mutating func stringMap(_ map: [String: String]) {
        object { json in
            for key in map.keys.sorted() {
                json.key(key)
                json.value(map[key])
            }
        }
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendNull() {
        bytes.append(contentsOf: "null".utf8)
    }

    /// `JSONEncoder`'s escapes (``JSONStringEscaper/Style/jsonEncoder``).
    private mutating func appendString(_ string: String) {
        JSONStringEscaper.append(string, to: &bytes, style: .jsonEncoder)
    }

    /// `yyyy-MM-ddTHH:mm:ssZ` of the second the date falls in. Dates before 1600 or from
    /// year 10000 go through Foundation's formatter, as `JSONEncoder` does for every date:
    /// its calendar is Julian before October 1582, which the arithmetic here is not.
    private mutating func appendDate(_ date: Date) {
        let interval = date.timeIntervalSince1970.rounded(.down)
        // 1600-01-01 and 10000-01-01 in seconds since 1970.
        guard interval >= -11_676_096_000, interval < 253_402_300_800 else {
            appendString(date.formatted(.iso8601))
            return
        }
        let (date, seconds) = CivilDate.dayAndSecond(secondsSince1970: Int64(interval))
        let secondOfDay = Int(seconds)
        bytes.append(UInt8(ascii: "\""))
        appendDigits(Int(date.year), count: 4)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(date.month), count: 2)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(date.day), count: 2)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(secondOfDay / 3_600, count: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay / 60 % 60, count: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay % 60, count: 2)
        bytes.append(contentsOf: "Z\"".utf8)
    }

    private mutating func appendDigits(_ value: Int, count: Int) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        var remainder = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(remainder / divisor))
            remainder %= divisor
            divisor /= 10
        }
    }
}
