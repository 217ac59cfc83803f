import AppStore
import Foundation
import Testing

@Suite("Lowercase hex")
struct LowercaseHexTests {
    @Test("every byte is its two lowercase digits, as String(format: \"%02x\") spells it")
    func everyByte() {
        let bytes = (0...255).map { UInt8($0) }
        #expect(LowercaseHex.encode(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
    }

    @Test("digits in the bytes' order; nothing for no bytes")
    func order() {
        #expect(LowercaseHex.encode([0xBA, 0x78, 0x16, 0xBF, 0x00, 0x0F]) == "ba7816bf000f")
        #expect(LowercaseHex.encode([UInt8]()) == "")
    }
}
