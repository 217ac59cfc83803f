/// The bytes of a JSON literal written in a test.
func json(_ text: String) -> [UInt8] {
    Array(text.utf8)
}
