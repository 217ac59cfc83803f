/// Strict base64url (RFC 4648 §5) without padding, as RFC 7515 requires in compact JWS.
///
/// Padding, whitespace and the standard alphabet's `+` `/` are refused: Apple never sends
/// them, and one canonical spelling keeps a tampered token from passing as the same bytes.
enum Base64URL {
    /// The decoded bytes, or `nil` when `text` is not canonical unpadded base64url.
    static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        text.withUnsafeBufferPointer { input -> [UInt8]? in
            var output: [UInt8] = []
            output.reserveCapacity(input.count * 3 / 4)
            var buffer: UInt32 = 0
            var bits = 0
            for byte in input {
                let value = sextets[Int(byte)]
                guard value != invalid else { return nil }
                buffer = (buffer << 6) | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                    buffer &= (1 << UInt32(bits)) - 1
                }
            }
            // A lone trailing sextet cannot hold a byte; leftover bits must be zero (canonical).
            guard bits < 6, buffer == 0 else { return nil }
            return output
        }
    }

    /// Unpadded base64url of `bytes`.
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                output.append(alphabet[Int((buffer >> UInt32(bits)) & 0x3F)])
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 {
            output.append(alphabet[Int((buffer << UInt32(6 - bits)) & 0x3F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

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
