/// An RFC 8259 parser that accepts exactly one well-formed JSON value and nothing doubtful.
///
/// Intake authenticates a body and stores it from one tree, so two readers can never
/// disagree about it: duplicate keys (compared after unescaping), invalid UTF-8, lone
/// surrogates, unescaped control characters, leading zeros, `NaN`/`Infinity`, trailing
/// commas and trailing data are all errors. Keys that are equal as Swift `String`s
/// (canonically equivalent) count as duplicates, since no dictionary can hold both.
///
/// Iterative with an explicit stack, so depth costs heap, not call stack; nesting deeper
/// than `maxDepth` is refused. One pass over the bytes, no Foundation.
public struct StrictJSONParser {
    /// The default nesting limit: Apple's documents nest about five levels.
    public static let defaultMaxDepth = 64

    /// Parses a whole document.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        var parser = StrictJSONParser(bytes: bytes, maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    /// An open array or object while its members are read.
    private struct Frame {
        var isObject: Bool
        var elements: [JSONValue] = []
        var members: [String: JSONValue] = [:]
        var key = ""
        var keyOffset = 0
    }

    private var cursor: JSONByteCursor
    private let maxDepth: Int
    private var stack: [Frame] = []

    private init(bytes: [UInt8], maxDepth: Int) {
        self.cursor = JSONByteCursor(bytes: bytes)
        self.maxDepth = maxDepth
    }

    private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        // `pending` is nil right after a container was opened.
        var pending = try parseValueOrOpen()
        while true {
            guard let value = pending else {
                pending = try firstMemberOrClose()
                continue
            }
            guard !stack.isEmpty else {
                cursor.skipWhitespace()
                guard cursor.isAtEnd else { throw JSONParseError(.trailingData, at: cursor.offset) }
                return value
            }
            try addToTopFrame(value)
            pending = try nextMemberOrClose()
        }
    }

    /// After a member: `,` and the next member, or the closing bracket and the finished container.
    private mutating func nextMemberOrClose() throws(JSONParseError) -> JSONValue? {
        cursor.skipWhitespace()
        let offset = cursor.offset
        guard let byte = cursor.next() else { throw JSONParseError(.unexpectedEnd, at: offset) }
        let isObject = stack[stack.count - 1].isObject
        switch byte {
        case UInt8(ascii: ","):
            if isObject { try readKey() }
            return try parseValueOrOpen()
        case UInt8(ascii: "]") where !isObject:
            return .array(stack.removeLast().elements)
        case UInt8(ascii: "}") where isObject:
            return .object(stack.removeLast().members)
        default:
            throw JSONParseError(.unexpectedByte(byte), at: offset)
        }
    }

    /// After `[` or `{`: the empty container, or nil with the first member's value pending.
    private mutating func firstMemberOrClose() throws(JSONParseError) -> JSONValue? {
        cursor.skipWhitespace()
        let top = stack.count - 1
        let close = stack[top].isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if cursor.peek() == close {
            _ = cursor.next()
            let frame = stack.removeLast()
            return frame.isObject ? .object(frame.members) : .array(frame.elements)
        }
        if stack[top].isObject { try readKey() }
        return try parseValueOrOpen()
    }

    /// Reads `"key" :` into the top frame.
    private mutating func readKey() throws(JSONParseError) {
        cursor.skipWhitespace()
        let offset = cursor.offset
        guard let byte = cursor.next() else { throw JSONParseError(.unexpectedEnd, at: offset) }
        guard byte == UInt8(ascii: "\"") else { throw JSONParseError(.unexpectedByte(byte), at: offset) }
        let key = try cursor.readStringBody()
        cursor.skipWhitespace()
        let colonOffset = cursor.offset
        guard let colon = cursor.next() else { throw JSONParseError(.unexpectedEnd, at: colonOffset) }
        guard colon == UInt8(ascii: ":") else { throw JSONParseError(.unexpectedByte(colon), at: colonOffset) }
        let top = stack.count - 1
        stack[top].key = key
        stack[top].keyOffset = offset
    }

    private mutating func addToTopFrame(_ value: JSONValue) throws(JSONParseError) {
        let top = stack.count - 1
        if stack[top].isObject {
            let key = stack[top].key
            if stack[top].members.updateValue(value, forKey: key) != nil {
                throw JSONParseError(.duplicateKey(key), at: stack[top].keyOffset)
            }
        } else {
            stack[top].elements.append(value)
        }
    }

    /// A scalar value, or nil after pushing a frame for `[` or `{`.
    private mutating func parseValueOrOpen() throws(JSONParseError) -> JSONValue? {
        cursor.skipWhitespace()
        let offset = cursor.offset
        guard let byte = cursor.peek() else { throw JSONParseError(.unexpectedEnd, at: offset) }
        switch byte {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            guard stack.count < maxDepth else { throw JSONParseError(.tooDeep(limit: maxDepth), at: offset) }
            _ = cursor.next()
            stack.append(Frame(isObject: byte == UInt8(ascii: "{")))
            return nil
        case UInt8(ascii: "\""):
            _ = cursor.next()
            return .string(try cursor.readStringBody())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try cursor.readNumber())
        case UInt8(ascii: "t"):
            try cursor.expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try cursor.expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try cursor.expectLiteral("null")
            return .null
        default:
            throw JSONParseError(.unexpectedByte(byte), at: offset)
        }
    }
}
