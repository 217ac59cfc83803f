import Foundation

/// The intake's previous canonical writer (Server's internal `CanonicalJSON`), copied
/// verbatim as the reference `CanonicalJSONWriter` must match byte for byte.
enum LegacyCanonicalJSON {
    /// The old pipeline: `JSONSerialization` and then the old writer.
    static func canonical(_ bytes: [UInt8]) throws -> [UInt8] {
        let object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        return Array(try data(object))
    }

    static func data(_ value: Any) throws -> Data {
        var bytes: [UInt8] = []
        try write(value, into: &bytes)
        return Data(bytes)
    }

    struct UnsupportedValue: Error {}

    private static func write(_ value: Any, into bytes: inout [UInt8]) throws {
        switch value {
        case is NSNull:
            bytes.append(contentsOf: "null".utf8)
        case let string as String:
            writeString(string, into: &bytes)
        case let number as NSNumber:
            if number.objCType.pointee == CChar(UInt8(ascii: "c")) {
                bytes.append(contentsOf: (number.boolValue ? "true" : "false").utf8)
            } else {
                bytes.append(contentsOf: numberText(number).utf8)
            }
        case let array as [Any]:
            bytes.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(element, into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case let object as [String: Any]:
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                try write(object[key] as Any, into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        default:
            throw UnsupportedValue()
        }
    }

    private static func numberText(_ number: NSNumber) -> String {
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "d"), UInt8(ascii: "f"): return "\(number.doubleValue)"
        case UInt8(ascii: "Q"): return "\(number.uint64Value)"
        default: return "\(number.int64Value)"
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private static func writeString(_ string: String, into bytes: inout [UInt8]) {
        let backslash = UInt8(ascii: "\\")
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), backslash:
                bytes.append(backslash)
                bytes.append(byte)
            case 0x0A:
                bytes.append(backslash)
                bytes.append(UInt8(ascii: "n"))
            case 0x0D:
                bytes.append(backslash)
                bytes.append(UInt8(ascii: "r"))
            case 0x09:
                bytes.append(backslash)
                bytes.append(UInt8(ascii: "t"))
            case 0..<0x20:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
