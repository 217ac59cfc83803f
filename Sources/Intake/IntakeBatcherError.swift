/// Why the intake batcher did not store an entry; every case is worth retrying later (503).
public struct IntakeBatcherError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Equatable {
        /// The queue of entries waiting for a batch is full.
        case overloaded
        /// The entry waited longer than the queue timeout without a batch taking it.
        case timedOut
        /// The batcher was shut down.
        case closed
    }

    /// What went wrong.
    public let code: Code

    /// Creates the error.
    public init(_ code: Code) {
        self.code = code
    }

    public var description: String {
        switch code {
        case .overloaded: return "intake is overloaded: too many notifications are waiting to be stored"
        case .timedOut: return "intake could not store the notification in time"
        case .closed: return "intake is shutting down"
        }
    }
}
