import Synchronization
import X509

/// The `OCSPRequester` of one revocation check: it asks through the configured responder
/// and remembers whether any question went unanswered, which tells a failed check's two
/// causes apart (no answer: retry later; an answer that is not "good": reject).
///
/// Every failure is terminal: a responder that does not answer never passes the check.
struct RecordingOCSPRequester: OCSPRequester {
    /// What the questions of one check came to.
    final class Record: Sendable {
        private let unanswered = Mutex(false)

        /// Whether some question got no answer.
        var anyUnanswered: Bool { unanswered.withLock { $0 } }

        func noteUnanswered() {
            unanswered.withLock { $0 = true }
        }
    }

    let responder: RevocationChecking.Responder
    let record = Record()

    func query(request: [UInt8], uri: String) async -> OCSPRequesterQueryResult {
        do {
            return .response(try await responder(request, uri))
        } catch {
            record.noteUnanswered()
            return .terminalError(error)
        }
    }
}
