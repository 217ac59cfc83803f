/// The statements one connection has prepared on the server, by SQL text.
///
/// Bounded: once `capacity` statements are prepared, further ones run unprepared rather
/// than evicting (a server-side `DEALLOCATE` would cost a round trip, and a process has a
/// fixed set of hot statements). Belongs to exactly one connection, like its handle.
struct PreparedStatementCache {
    /// The most statements prepared on one connection.
    let capacity: Int
    private var names: [String: String] = [:]

    /// A cache holding at most `capacity` statements.
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The server-side name of `sql` when this connection prepared it before.
    func name(for sql: String) -> String? {
        names[sql]
    }

    /// The name to prepare `sql` under, or nil when the cache is full.
    func nameForNewStatement() -> String? {
        names.count < capacity ? "subscriptiond_\(names.count + 1)" : nil
    }

    /// Remembers that `sql` is now prepared as `name`.
    mutating func remember(_ sql: String, as name: String) {
        names[sql] = name
    }

    /// How many statements are prepared.
    var count: Int { names.count }
}
