import Foundation

/// Where customers' consent to share consumption data is kept (`ConsumptionStore` in production).
public protocol ConsentRepository: Sendable {
    /// Records `consented` for `appUserID`; returns when.
    func setConsent(appUserID: String, consented: Bool) async throws -> Date
}
