/// A SQL statement with its parameters bound separately, never spliced into the text.
///
/// Interpolated values become `$1`, `$2`, … placeholders:
/// ```swift
/// let query: PostgresQuery = "SELECT status FROM subscriptions WHERE original_transaction_id = \(id)"
/// ```
/// Only `unescaped:` interpolation adds text to the statement; use it for fixed SQL
/// fragments chosen by code, never for data.
public struct PostgresQuery: Sendable, ExpressibleByStringInterpolation {
    /// The statement text with `$N` placeholders.
    public var sql: String
    /// The values for `$1 … $N`, in order.
    public var bindings: [PostgresValue]
    /// True when the statement is prepared once per connection and then executed by name.
    public var isPrepared = false

    /// Creates a query from statement text and its already-numbered bindings.
    public init(sql: String, bindings: [PostgresValue] = []) {
        self.sql = sql
        self.bindings = bindings
    }

    /// The same statement, prepared once per connection and afterwards executed by name,
    /// so the server parses and plans it once instead of on every call. For hot statements
    /// whose text is fixed (values bound, never spliced in): every distinct text takes one of
    /// a connection's bounded slots (`PostgresConnection.maximumPreparedStatements`), and
    /// statements past that bound simply run unprepared.
    ///
    /// ```swift
    /// let query: PostgresQuery = "SELECT id FROM notifications WHERE dedupe_key = \(key)"
    /// let rows = try session.query(query.prepared())
    /// ```
    public func prepared() -> PostgresQuery {
        var copy = self
        copy.isPrepared = true
        return copy
    }

    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    public init(stringInterpolation: StringInterpolation) {
        self.init(sql: stringInterpolation.sql, bindings: stringInterpolation.bindings)
    }

    /// Builds the statement text and bindings from an interpolated literal.
    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var bindings: [PostgresValue] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
            bindings.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// Binds a value as the next parameter.
        public mutating func appendInterpolation(_ value: some PostgresEncodable) {
            bindings.append(value.postgresValue)
            sql += "$\(bindings.count)"
        }

        /// Binds an optional value as the next parameter; nil binds SQL NULL.
        public mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value?) {
            bindings.append(value.postgresValue)
            sql += "$\(bindings.count)"
        }

        /// Compares with any of `keys`, bound as one parameter: `= $n` for one key, and
        /// `= ANY($n::text[])` for any other number. The two are different statements on
        /// purpose: PostgreSQL keeps a prepared `= $n` on its generic plan, but costs the
        /// generic plan of `= ANY($n)` for an array of unknown length, finds a plan for the
        /// given values cheaper, and so plans it again on every call once the tables have
        /// some size; one key, the common case, should not pay that.
        public mutating func appendInterpolation(equalsOneOf keys: [String]) {
            if keys.count == 1, let key = keys.first {
                sql += "= "
                appendInterpolation(key)
            } else {
                sql += "= ANY("
                appendInterpolation(keys)
                sql += "::text[])"
            }
        }

        /// Appends fixed SQL text chosen by code (an ORDER BY column, a list of placeholders), never data.
        public mutating func appendInterpolation(unescaped fragment: StaticString) {
            sql += fragment.description
        }
    }
}
