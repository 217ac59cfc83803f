/// A client's connection pool at one moment.
public struct PostgresPoolStatistics: Sendable, Equatable {
    /// Connections leased to a caller (a statement or transaction running, or about to).
    public let inUse: Int
    /// Open connections waiting for a caller.
    public let idle: Int
    /// Callers waiting for a free connection (each until its lease timeout).
    public let waiting: Int

    public init(inUse: Int, idle: Int, waiting: Int) {
        self.inUse = inUse
        self.idle = idle
        self.waiting = waiting
    }
}
