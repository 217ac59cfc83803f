import Foundation
import Subscriptions

/// Facts Apple stated, with the moment they were observed (what a receipt kept with them is
/// dated by, and the tiebreak of equal statements).
public struct FactBatch: Sendable {
    public let facts: ReceiptFacts
    public let observedAt: Date

    public init(facts: ReceiptFacts, observedAt: Date) {
        self.facts = facts
        self.observedAt = observedAt
    }
}
