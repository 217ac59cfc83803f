import Subscriptions

/// What `AnswerStore.eligibilityFacts` found.
public enum StoredEligibility: Sendable {
    /// The user's current stored group usage, and the catalog.
    case stored(GroupUsage, ProductCatalog)
    /// The user has no linked subscription: no history; and the catalog.
    case newCustomer(ProductCatalog)
    /// The user has linked subscriptions but no current stored usage; the catalog, and the
    /// stamp to store a newly computed answer with.
    case notStored(ProductCatalog, AnswerStamp)
}
