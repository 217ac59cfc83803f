/// Strict base64url (RFC 4648 §5) without padding, as RFC 7515 requires in compact JWS.
///
/// Padding, whitespace and the standard alphabet's `+` `/` are refused: Apple never sends
/// them, and one canonical spelling keeps a tampered token from passing as the same bytes.
public enum Base64URL {
    /// The decoded bytes, or `nil` when `text` is not canonical unpadded base64url.
    ///
    /// Four characters at a time into storage sized up front, one table look-up each: a
    /// notification is three JWS and 18 kB of this, decoded on every delivery.
    public static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        let count = text.count
        let tail = count % 4
        // One character alone cannot hold a byte.
        guard tail != 1 else { return nil }
        let outputCount = count / 4 * 3 + (tail == 0 ? 0 : tail - 1)
        // Any invalid character's table entry has one of the two high bits set; valid ones are below 64.
        var seen: UInt8 = 0
        let output = sextets.withUnsafeBufferPointer { table in
            text.withUnsafeBufferPointer { input in
                [UInt8](unsafeUninitializedCapacity: outputCount) { out, initialized in
                    func value(_ index: Int) -> UInt32 {
                        let sextet = table[Int(input[index])]
                        seen |= sextet
                        return UInt32(sextet)
                    }
                    var i = 0
                    var o = 0
                    while i + 4 <= count {
                        let group = value(i) << 18 | value(i + 1) << 12 | value(i + 2) << 6 | value(i + 3)
                        out[o] = UInt8(truncatingIfNeeded: group >> 16)
                        out[o + 1] = UInt8(truncatingIfNeeded: group >> 8)
                        out[o + 2] = UInt8(truncatingIfNeeded: group)
                        i += 4
                        o += 3
                    }
                    // The bits left over after the last whole byte must be zero (canonical).
                    if tail == 2 {
                        let group = value(i) << 6 | value(i + 1)
                        if group & 0x0F != 0 { seen |= invalid }
                        out[o] = UInt8(truncatingIfNeeded: group >> 4)
                    } else if tail == 3 {
                        let group = value(i) << 12 | value(i + 1) << 6 | value(i + 2)
                        if group & 0x03 != 0 { seen |= invalid }
                        out[o] = UInt8(truncatingIfNeeded: group >> 10)
                        out[o + 1] = UInt8(truncatingIfNeeded: group >> 2)
                    }
                    initialized = outputCount
                }
            }
        }
        return seen & 0xC0 == 0 ? output : nil
    }

    /// Unpadded base64url of `bytes`.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        String(decoding: encodedBytes(Array(bytes)), as: UTF8.self)
    }

    /// Unpadded base64url of `bytes`, as ASCII bytes: three bytes at a time into storage
    /// sized up front (a notification's payload is re-encoded when its chains are taken out).
    public static func encodedBytes(_ bytes: [UInt8]) -> [UInt8] {
        let count = bytes.count
        let outputCount = count / 3 * 4 + [0, 2, 3][count % 3]
        return bytes.withUnsafeBufferPointer { input in
            alphabet.withUnsafeBufferPointer { table in
                [UInt8](unsafeUninitializedCapacity: outputCount) { out, initialized in
                    func sextet(_ group: UInt32, _ shift: UInt32) -> UInt8 { table[Int((group >> shift) & 0x3F)] }
                    var i = 0
                    var o = 0
                    while i + 3 <= count {
                        let group = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                        out[o] = sextet(group, 18)
                        out[o + 1] = sextet(group, 12)
                        out[o + 2] = sextet(group, 6)
                        out[o + 3] = sextet(group, 0)
                        i += 3
                        o += 4
                    }
                    if count - i == 1 {
                        let group = UInt32(input[i]) << 16
                        out[o] = sextet(group, 18)
                        out[o + 1] = sextet(group, 12)
                        o += 2
                    } else if count - i == 2 {
                        let group = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8
                        out[o] = sextet(group, 18)
                        out[o + 1] = sextet(group, 12)
                        out[o + 2] = sextet(group, 6)
                        o += 3
                    }
                    initialized = o
                }
            }
        }
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let invalid: UInt8 = 0xFF

    /// Each byte's value in the base64url alphabet, `invalid` for every other byte: a table,
    /// because a JWS is decoded byte by byte (an 18 kB notification is three of them).
    private static let sextets: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt8(byte) - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt8(byte) - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: invalid
        }
    }
}
