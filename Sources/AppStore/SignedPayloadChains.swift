import Crypto

/// A version 2 notification's `signedPayload` stored without its certificate chains.
///
/// Apple puts the same `x5c` chain (three certificates, about 5.4 kB of base64) in the header
/// of the notification's JWS and again in each JWS nested in its payload
/// (`signedTransactionInfo`, `signedRenewalInfo`, `signedAppTransactionInfo`): 16 of a
/// notification's 18.7 kB. ``split(_:)`` takes each chain out, keyed by the SHA-256 of its
/// exact text, and leaves `"x5c":"sha256:<hex>"` in its place; ``joined(_:chains:)`` puts them
/// back, giving the received text byte for byte, so it verifies again as it did at intake.
///
/// The chainless text is still three base64url parts whose payloads decode to the same JSON
/// but for the nested headers: a reader that decodes payloads without verifying (the worker,
/// in this release and the one before) reads it as it reads the received text.
public enum SignedPayloadChains {
    /// A certificate chain taken out of a header: its id (`sha256:` and the hex SHA-256 of
    /// `text`) and the exact JSON text of the `x5c` array.
    public struct Chain: Sendable, Hashable {
        public let id: String
        public let text: String

        public init(id: String, text: String) {
            self.id = id
            self.text = text
        }
    }

    /// The fields of an App Store payload that hold a nested JWS.
    static let nestedFields = ["signedTransactionInfo", "signedRenewalInfo", "signedAppTransactionInfo"]

    /// `signedPayload` without its chains, and the chains (each once); nil when it holds no
    /// chain to take out, or when the result would not give `signedPayload` back exactly
    /// (then it is stored as received).
    public static func split(_ signedPayload: String) -> (chainless: String, chains: [Chain])? {
        var chains: [String: Chain] = [:]
        guard let chainless = transform(Array(signedPayload.utf8), nested: true, header: { take($0, into: &chains) }),
            !chains.isEmpty
        else { return nil }
        let text = String(decoding: chainless, as: UTF8.self)
        guard joined(text, chains: chains.mapValues(\.text)) == signedPayload else { return nil }
        return (text, chains.values.sorted { $0.id < $1.id })
    }

    /// The received text of `chainless`, with `chains` (id → text) put back; `chainless`
    /// itself when it references none; nil when it references a chain `chains` lacks or is
    /// not a compact JWS.
    public static func joined(_ chainless: String, chains: [String: String]) -> String? {
        guard chainless.utf8.contains(UInt8(ascii: ".")) else { return nil }
        var missing = false
        let joined = transform(Array(chainless.utf8), nested: true) { header in
            put(into: header, chains: chains, missing: &missing)
        }
        guard let joined, !missing else { return nil }
        return String(decoding: joined, as: UTF8.self)
    }

    /// The chain ids `chainless` references, each once.
    public static func references(in chainless: String) -> [String] {
        var ids: Set<String> = []
        _ = transform(Array(chainless.utf8), nested: true) { header in
            if let range = referenceRange(in: header) {
                ids.insert(String(decoding: header[range].dropFirst().dropLast(), as: UTF8.self))
            }
            return Array(header)
        }
        return ids.sorted()
    }

    // MARK: - The text surgery

    /// The compact JWS `jws` with `header` applied to its decoded header and, when `nested`,
    /// to the header of each JWS its payload holds in ``nestedFields``; nil when `jws` is not
    /// three base64url parts.
    private static func transform(_ jws: [UInt8], nested: Bool, header: (ArraySlice<UInt8>) -> [UInt8]) -> [UInt8]? {
        let parts = jws.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, let decodedHeader = Base64URL.decode(parts[0]) else { return nil }
        var output = Base64URL.encodedBytes(header(decodedHeader[...]))
        output.append(UInt8(ascii: "."))
        if nested {
            guard let payload = Base64URL.decode(parts[1]) else { return nil }
            guard let rewritten = transformNested(in: payload, header: header) else { return nil }
            output += rewritten == payload ? Array(parts[1]) : Base64URL.encodedBytes(rewritten)
        } else {
            output += parts[1]
        }
        output.append(UInt8(ascii: "."))
        output += parts[2]
        return output
    }

    /// `payload` (JSON text) with each nested JWS in ``nestedFields`` transformed; nil when one
    /// is not a compact JWS.
    private static func transformNested(in payload: [UInt8], header: (ArraySlice<UInt8>) -> [UInt8]) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(payload.count)
        var index = payload.startIndex
        while let (start, end) = nextNestedValue(in: payload, from: index) {
            output += payload[index..<start]
            guard let rewritten = transform(Array(payload[start..<end]), nested: false, header: header) else { return nil }
            output += rewritten
            index = end
        }
        output += payload[index...]
        return output
    }

    /// The range of the next nested JWS string's characters (between its quotes) at or after
    /// `from`: a field of ``nestedFields`` followed by `:` and a string. A JWS holds only
    /// base64url characters and dots, so the string ends at the next quote. One pass over the
    /// payload for all the fields.
    private static func nextNestedValue(in payload: [UInt8], from: Int) -> (Int, Int)? {
        payload.withUnsafeBufferPointer { text in
            var i = from
            while i < text.count {
                defer { i += 1 }
                guard text[i] == UInt8(ascii: "\""), let key = nestedKeys.first(where: { matches($0, in: text, at: i) }) else { continue }
                var j = i + key.count
                while j < text.count, text[j] == UInt8(ascii: " ") { j += 1 }
                guard j < text.count, text[j] == UInt8(ascii: ":") else { continue }
                j += 1
                while j < text.count, text[j] == UInt8(ascii: " ") { j += 1 }
                guard j < text.count, text[j] == UInt8(ascii: "\"") else { continue }
                let start = j + 1
                var end = start
                while end < text.count, text[end] != UInt8(ascii: "\"") { end += 1 }
                return end < text.count ? (start, end) : nil
            }
            return nil
        }
    }

    /// ``nestedFields`` as the quoted keys the payload's text holds.
    private static let nestedKeys = nestedFields.map { Array("\"\($0)\"".utf8) }

    private static func matches(_ needle: [UInt8], in text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index + needle.count <= text.count else { return false }
        for offset in needle.indices where text[index + offset] != needle[offset] { return false }
        return true
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        haystack.withUnsafeBufferPointer { text in
            var i = from
            while i < text.count {
                if text[i] == needle[0], matches(needle, in: text, at: i) { return i }
                i += 1
            }
            return nil
        }
    }

    /// The range of `"x5c"`'s array value in a decoded header (`[` through `]`), or nil.
    private static func chainRange(in header: ArraySlice<UInt8>) -> Range<Int>? {
        guard let value = valueStart(of: "x5c", in: header), header[value] == UInt8(ascii: "[") else { return nil }
        guard let end = header[value...].firstIndex(of: UInt8(ascii: "]")),
            !header[(value + 1)..<end].contains(UInt8(ascii: "["))
        else { return nil }
        return value..<(end + 1)
    }

    /// The range of `"x5c"`'s reference string (`"sha256:…"`, quotes included) in a chainless header, or nil.
    private static func referenceRange(in header: ArraySlice<UInt8>) -> Range<Int>? {
        guard let value = valueStart(of: "x5c", in: header), header[value] == UInt8(ascii: "\""),
            let end = header[(value + 1)...].firstIndex(of: UInt8(ascii: "\""))
        else { return nil }
        let text = header[(value + 1)..<end]
        guard text.starts(with: Array(referencePrefix.utf8)) else { return nil }
        return value..<(end + 1)
    }

    /// Where the value of `"key"` starts in a JSON object's text, or nil.
    private static func valueStart(of key: String, in text: ArraySlice<UInt8>) -> Int? {
        let needle = Array("\"\(key)\"".utf8)
        guard let keyStart = firstIndex(of: needle, in: Array(text), from: 0) else { return nil }
        var i = text.startIndex + keyStart + needle.count
        while i < text.endIndex, text[i] == UInt8(ascii: " ") { i += 1 }
        guard i < text.endIndex, text[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        while i < text.endIndex, text[i] == UInt8(ascii: " ") { i += 1 }
        return i < text.endIndex ? i : nil
    }

    static let referencePrefix = "sha256:"

    /// `header` with its chain replaced by a reference, the chain kept in `chains`.
    private static func take(_ header: ArraySlice<UInt8>, into chains: inout [String: Chain]) -> [UInt8] {
        guard let range = chainRange(in: header) else { return Array(header) }
        let chain = header[range]
        let id = referencePrefix + LowercaseHex.encode(SHA256.hash(data: Array(chain)))
        // Apple repeats one chain in every header: its text is made once.
        if chains[id] == nil {
            chains[id] = Chain(id: id, text: String(decoding: chain, as: UTF8.self))
        }
        return Array(header[..<range.lowerBound]) + Array("\"\(id)\"".utf8) + Array(header[range.upperBound...])
    }

    /// `header` with its reference replaced by the chain it names (`missing` set when `chains` lacks it).
    private static func put(into header: ArraySlice<UInt8>, chains: [String: String], missing: inout Bool) -> [UInt8] {
        guard let range = referenceRange(in: header) else { return Array(header) }
        let id = String(decoding: header[range].dropFirst().dropLast(), as: UTF8.self)
        guard let chain = chains[id] else {
            missing = true
            return Array(header)
        }
        return Array(header[..<range.lowerBound]) + Array(chain.utf8) + Array(header[range.upperBound...])
    }
}
