import Metrics
import StoredAnswers

/// `subscriptiond_read_answers_total{endpoint, answer}`: reads answered from a stored answer
/// (`stored`) or computed from the facts (`computed`). A falling share of `stored` means
/// answers change faster than they are read.
///
/// `subscriptiond_read_answer_writes_total{outcome}`: computed answers the background writer
/// stored, dropped (its queue full) or failed to write. Dropped and failed answers are
/// computed again by their next read.
enum ReadAnswerMetrics {
    /// The read endpoints with stored answers.
    enum Endpoint: String, CaseIterable {
        case subscription, subscriber, entitlements, eligibility
    }

    /// Counts one answer.
    static func record(_ endpoint: Endpoint, _ origin: ReadAnswers.Origin) {
        (origin == .stored ? stored : computed)[endpoint]?.increment()
    }

    /// The response of a read endpoint: its answer, counted; 404 with `missing` when there is none.
    static func response(
        _ answer: (body: String, origin: ReadAnswers.Origin)?, of endpoint: Endpoint, missing: String
    ) throws -> JSONBodyResponse {
        guard let answer else { throw APIError.notFound(missing) }
        record(endpoint, answer.origin)
        return JSONBodyResponse(body: answer.body)
    }

    /// Counts answers handed to the background writer, by what became of them.
    @Sendable static func recordWrites(_ outcome: AnswerWriter.Outcome, _ count: Int) {
        writes[outcome]?.increment(by: Int64(count))
    }

    private static let writes = Dictionary(
        uniqueKeysWithValues: AnswerWriter.Outcome.allCases.map { outcome in
            (outcome, Counter(label: "subscriptiond_read_answer_writes_total", dimensions: [("outcome", outcome.rawValue)]))
        })

    private static let stored = counters(.stored)
    private static let computed = counters(.computed)

    private static func counters(_ origin: ReadAnswers.Origin) -> [Endpoint: Counter] {
        Dictionary(
            uniqueKeysWithValues: Endpoint.allCases.map { endpoint in
                (
                    endpoint,
                    Counter(
                        label: "subscriptiond_read_answers_total",
                        dimensions: [("endpoint", endpoint.rawValue), ("answer", origin.rawValue)])
                )
            })
    }
}
