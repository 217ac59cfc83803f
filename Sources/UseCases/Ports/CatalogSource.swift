import Subscriptions

/// The product catalog as it is now (`ReadAnswers`, which keeps one per catalog generation).
public protocol CatalogSource: Sendable {
    func catalog() async throws -> ProductCatalog
}
