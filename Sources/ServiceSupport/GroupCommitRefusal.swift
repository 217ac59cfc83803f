/// Why a group commit did not write a job; every case is worth submitting it again later.
public struct GroupCommitRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// What happened.
    public enum Code: Sendable, Equatable {
        /// `maximumQueued` jobs were waiting already.
        case full
        /// The job waited longer than `maximumWait` without a write taking it.
        case timedOut
        /// The group commit was closed.
        case closed
    }

    /// What happened.
    public let code: Code

    /// Creates the error.
    public init(_ code: Code) {
        self.code = code
    }

    public var description: String {
        switch code {
        case .full: return "too many jobs wait for a group commit"
        case .timedOut: return "a job waited too long for a group commit"
        case .closed: return "the group commit is closed"
        }
    }
}
