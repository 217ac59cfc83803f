import Foundation

/// Typed reads of the fields of Apple's signed (version 2) payloads.
///
/// Unlike version 1, these payloads are signed JSON with real types, so a known field of the
/// wrong type is an error naming the field; unknown fields are ignored. Dates are strict
/// because they decide entitlement and the certificate validation time.
extension KeyedDecodingContainer where Key == AppleKey {
    /// The earliest date accepted: the App Store predates no payload before 2007-01-01.
    static var v2EarliestMillis: Double { 1_167_609_600_000 }
    /// The latest date accepted: 9999-12-31T23:59:59.999Z.
    static var v2LatestMillis: Double { 253_402_300_799_999 }

    /// A millisecond timestamp as a `Date`; `nil` when absent or `null`.
    ///
    /// Rejects non-integral, non-finite and out-of-range numbers instead of trapping or
    /// silently producing a date no one meant.
    func v2Date(_ name: String) throws -> Date? {
        let key = AppleKey(name)
        guard let millis = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard millis.isFinite, millis.rounded(.towardZero) == millis,
            millis >= Self.v2EarliestMillis, millis <= Self.v2LatestMillis
        else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "\(name) is not a whole number of milliseconds between 2007 and 9999"
            )
        }
        return Date(timeIntervalSince1970: millis / 1000)
    }

    /// An identifier sent as a string or, in some payloads, as a whole JSON number.
    func v2ID(_ name: String) throws -> String? {
        let key = AppleKey(name)
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let text = try? decode(String.self, forKey: key) { return text }
        if let number = try? decode(Int64.self, forKey: key) { return String(number) }
        if let number = try? decode(UInt64.self, forKey: key) { return String(number) }
        throw DecodingError.dataCorruptedError(
            forKey: key, in: self, debugDescription: "\(name) is neither a string nor a whole number"
        )
    }

    /// A string field.
    func v2String(_ name: String) throws -> String? {
        try decodeIfPresent(String.self, forKey: AppleKey(name))
    }

    /// An integer field (codes, counts, prices in milliunits).
    func v2Int(_ name: String) throws -> Int? {
        try decodeIfPresent(Int.self, forKey: AppleKey(name))
    }

    /// A boolean field.
    func v2Bool(_ name: String) throws -> Bool? {
        try decodeIfPresent(Bool.self, forKey: AppleKey(name))
    }

    /// An array of strings.
    func v2Strings(_ name: String) throws -> [String]? {
        try decodeIfPresent([String].self, forKey: AppleKey(name))
    }

    /// A nested object.
    func v2Object<T: Decodable>(_ type: T.Type, _ name: String) throws -> T? {
        try decodeIfPresent(T.self, forKey: AppleKey(name))
    }
}
