/// Bound values laid out for `PQsendQueryParams`: one contiguous buffer, offsets into it,
/// lengths and formats. Built before anything is sent, so a value libpq would silently
/// mangle is refused instead.
struct PostgresParameters {
    /// The most parameters one statement can carry (the protocol counts them in 16 bits).
    static let maximumCount = 65_535

    private var storage: [UInt8] = []
    private var offsets: [Int?] = []
    private(set) var lengths: [Int32] = []
    private(set) var formats: [Int32] = []

    /// Number of parameters.
    var count: Int32 { Int32(offsets.count) }

    /// Lays out `bindings`; throws `.invalidParameter` for a text value containing U+0000
    /// (libpq reads text parameters up to the first NUL and would drop the rest) or a value
    /// too large for the protocol. The message names the parameter, never its value.
    init(_ bindings: [PostgresValue]) throws {
        guard bindings.count <= Self.maximumCount else {
            throw PostgresError(
                .invalidParameter, message: "a statement takes at most \(Self.maximumCount) parameters, not \(bindings.count)")
        }
        lengths = [Int32](repeating: 0, count: bindings.count)
        formats = [Int32](repeating: 0, count: bindings.count)
        offsets.reserveCapacity(bindings.count)
        for (index, value) in bindings.enumerated() {
            switch value {
            case .null:
                offsets.append(nil)
            case .text(let text):
                let start = storage.count
                // Copied as a block (an intake batch binds whole bodies), then checked in place.
                storage.append(contentsOf: text.utf8)
                guard !storage[start...].contains(0) else {
                    throw PostgresError(.invalidParameter, message: "parameter $\(index + 1) contains a NUL character")
                }
                offsets.append(start)
                storage.append(0)
            case .binary(let bytes):
                guard let length = Int32(exactly: bytes.count) else {
                    throw PostgresError(.invalidParameter, message: "parameter $\(index + 1) is too large")
                }
                offsets.append(storage.count)
                storage.append(contentsOf: bytes)
                lengths[index] = length
                formats[index] = 1
            }
        }
        // Never empty, so every offset (even of a zero-length value) points into real memory.
        storage.append(0)
    }

    /// Calls `body` with one pointer per parameter (nil for SQL NULL), valid only inside it.
    func withValuePointers<R>(_ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        storage.withUnsafeBytes { buffer in
            let characters = buffer.bindMemory(to: CChar.self)
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in
                offset.flatMap { characters.baseAddress?.advanced(by: $0) }
            }
            return body(pointers)
        }
    }
}
