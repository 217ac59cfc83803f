import Subscriptions

/// Where exchange rates are kept (`ExchangeRateStore` in production).
public protocol ExchangeRateRepository: Sendable {
    /// Adds rates quoted in `quote`, replacing those of the same currency and day.
    func importRates(_ rates: [ExchangeRate], quote: String) async throws -> (added: Int, replaced: Int)
    /// Every rate quoted in `quote`.
    func rates(quote: String) async throws -> [ExchangeRate]
}
