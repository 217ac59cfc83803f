import Foundation

/// Where customers' consent to share consumption data is kept (`ConsumptionStore` in production).
public protocol ConsentRepository: Sendable {
    /// Records `consented` for `appUserID`, with an audit row naming `actor`; returns when.
    func setConsent(appUserID: String, consented: Bool, actor: String) async throws -> Date
}
