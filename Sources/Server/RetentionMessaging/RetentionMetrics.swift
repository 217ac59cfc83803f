import Metrics
import ServiceSupport
import Store
import Subscriptions
import UseCases

/// `subscriptiond_retention_answers_total{answer, reason}`: what the Get Retention Message
/// endpoint answered (`message`, `alternate_product`, `promotional_offer`, or `default`: Apple's
/// own message) and why (`matched`, `no_match`, `unknown_subscription`, `deadline`, `failed`).
/// A rising `deadline` or `failed` count means customers see Apple's default where a rule
/// would have answered.
///
/// `subscriptiond_retention_answer_writes_total{outcome}`: answers recorded in
/// `retention_answers` after the fact (`written`), dropped (the recorder's queue full) or
/// whose write failed.
enum RetentionMetrics {
    /// Counts one answer.
    static func answered(_ answer: RetentionMessages.Answer) {
        let kind = answer.action?.kind.rawValue ?? RetentionAnswerRecord.Answer.appleDefault.rawValue
        Counter(label: "subscriptiond_retention_answers_total", dimensions: [("answer", kind), ("reason", answer.reason.rawValue)])
            .increment()
    }

    /// Counts answers handed to the recorder, by what became of them.
    @Sendable static func recordWrites(_ outcome: BatchWriter<RetentionAnswerRecord>.Outcome, _ count: Int) {
        writes[outcome]?.increment(by: Int64(count))
    }

    private static let writes = Dictionary(
        uniqueKeysWithValues: BatchWriter<RetentionAnswerRecord>.Outcome.allCases.map { outcome in
            (outcome, Counter(label: "subscriptiond_retention_answer_writes_total", dimensions: [("outcome", outcome.rawValue)]))
        })
}
