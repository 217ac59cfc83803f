import Foundation

/// Tolerant reads of Apple's loosely typed JSON.
///
/// Every reader returns `nil` for a missing key, `null`, or a value of a type it cannot
/// interpret: a surprising optional field must never fail a whole notification, because
/// a rejected notification is retried by Apple and finally lost.
extension KeyedDecodingContainer where Key == AppleKey {
    /// A non-empty string, also accepting JSON numbers (old bodies carry ids as numbers).
    ///
    /// An empty or blank string reads as absent: Apple fills unused fields with `""` at times.
    func lenientString(_ names: String...) -> String? {
        for name in names {
            if let value = string(forKey: AppleKey(name)) { return value }
        }
        return nil
    }

    /// A boolean from `true`/`false`, `"true"`/`"false"`, `"1"`/`"0"`, or `1`/`0`.
    func lenientBool(_ names: String...) -> Bool? {
        for name in names {
            let key = AppleKey(name)
            // Apple's usual form first: every kind tried and missed costs a thrown error.
            if let text = try? decodeIfPresent(String.self, forKey: key) {
                if let value = LenientParse.bool(text) { return value }
                continue
            }
            if let value = try? decodeIfPresent(Bool.self, forKey: key) { return value }
            if let value = try? decodeIfPresent(Int.self, forKey: key) {
                if value == 0 { return false }
                if value == 1 { return true }
            }
        }
        return nil
    }

    /// An integer from a JSON number or a numeric string.
    func lenientInt(_ names: String...) -> Int? {
        for name in names {
            let key = AppleKey(name)
            if let text = try? decodeIfPresent(String.self, forKey: key) {
                if let value = Int(AppleWhitespace.trimmed(text)) { return value }
                continue
            }
            if let value = try? decodeIfPresent(Int.self, forKey: key) { return value }
        }
        return nil
    }

    /// A date from the first key that holds one: milliseconds since 1970 as a number or a
    /// string, or failing that Apple's `yyyy-MM-dd HH:mm:ss Etc/GMT` text.
    ///
    /// Pass the `_ms` key first: the plain key holds milliseconds in legacy bodies but
    /// formatted text in newer ones. A `_ms` field that is present must hold a valid date
    /// (`AppleDateRange`), and so must numeric text in any date field; otherwise this throws
    /// `AppleValueError` naming the field. Non-numeric text Apple's other formats use (the
    /// `_pst` style, say) in a fallback field still reads as absent.
    func lenientDate(_ names: String...) throws -> Date? {
        for name in names {
            let key = AppleKey(name)
            guard contains(key), (try? decodeNil(forKey: key)) == false else { continue }
            let strict = name.hasSuffix("_ms")
            // Built only when thrown: naming the field costs a string per date otherwise.
            func refuse() -> AppleValueError {
                AppleValueError(field: AppleValueError.path(codingPath, name), problem: AppleDateRange.problem)
            }
            // Text first, Apple's usual form: every kind tried and missed costs a thrown error.
            guard let text = try? decode(String.self, forKey: key) else {
                guard let millis = try? decode(Double.self, forKey: key) else {
                    if strict { throw refuse() }
                    continue
                }
                guard let date = AppleDateRange.date(milliseconds: millis) else { throw refuse() }
                return date
            }
            let trimmed = AppleWhitespace.trimmed(text)
            // An empty string says "no date" (as a v1 body's auto_renew_status_change_date_ms
            // may): absent, never malformed, or Apple retries the whole notification and loses it.
            if trimmed.isEmpty { continue }
            if strict || AppleDateRange.looksNumeric(trimmed) {
                guard let date = AppleDateRange.date(millisecondText: trimmed) else { throw refuse() }
                return date
            }
            if let date = AppleDateText.parse(String(trimmed)) {
                guard AppleDateRange.contains(date) else { throw refuse() }
                return date
            }
        }
        return nil
    }

    /// Objects under a key that may hold an array of them or, in pre-2021 bodies, one object.
    ///
    /// Entries that do not decode are skipped rather than failing the document, except for
    /// an `AppleValueError` (a malformed value of a known field), which is thrown.
    func lenientObjects<T: Decodable>(_ type: T.Type, _ name: String) throws -> [T] {
        let key = AppleKey(name)
        if let many = try AppleValueError.passing({ try decodeIfPresent([Skippable<T>].self, forKey: key) }) {
            return many.compactMap(\.value)
        }
        if let one = try AppleValueError.passing({ try decodeIfPresent(T.self, forKey: key) }) {
            return [one]
        }
        return []
    }

    /// One object under a key, or `nil` when it is absent or does not decode; an
    /// `AppleValueError` inside it is thrown.
    func lenientObject<T: Decodable>(_ type: T.Type, _ name: String) throws -> T? {
        try AppleValueError.passing { try decodeIfPresent(T.self, forKey: AppleKey(name)) }
    }

    private func string(forKey key: AppleKey) -> String? {
        if let value = try? decodeIfPresent(String.self, forKey: key) {
            return AppleWhitespace.isBlank(value) ? nil : value
        }
        if let value = try? decodeIfPresent(Int64.self, forKey: key) { return String(value) }
        if let value = try? decodeIfPresent(UInt64.self, forKey: key) { return String(value) }
        if let value = try? decodeIfPresent(Double.self, forKey: key),
            let whole = Int64(exactly: value)
        {
            return String(whole)
        }
        return nil
    }
}

/// An array element that decodes to `nil` instead of throwing (but for `AppleValueError`).
private struct Skippable<T: Decodable>: Decodable {
    let value: T?

    init(from decoder: any Decoder) throws {
        value = try AppleValueError.passing { try T(from: decoder) }
    }
}
