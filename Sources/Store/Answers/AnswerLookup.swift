/// What a lookup of one stored answer found.
public enum AnswerLookup: Sendable {
    /// The stored body, current at the time asked.
    case current(String)
    /// No current answer: compute one from facts read after this lookup, and store it with
    /// this stamp.
    case stale(AnswerStamp)
}
