import Store

/// Keeps what the Get Retention Message endpoint answered, off the request path
/// (`RetentionAnswerRecorder` in the server, which writes batches to `retention_answers`).
public protocol RetentionAnswerRecording: Sendable {
    /// Takes `record` to store soon; never waits and never fails (a full buffer drops it and
    /// counts the drop).
    func submit(_ record: RetentionAnswerRecord)
}
