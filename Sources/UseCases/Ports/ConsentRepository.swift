import Foundation
import Store

/// Where customers' consent to share consumption data is kept (`ConsumptionStore` in production).
public protocol ConsentRepository: Sendable {
    /// Records `consented` for `appUserID`, with an audit row naming `actor`; returns when.
    func setConsent(appUserID: String, consented: Bool, actor: String) async throws -> Date
}

/// Where what the app's backend knows of a purchase is kept (`ConsumptionStore` in production).
public protocol ConsumptionReportRepository: Sendable {
    /// The apps of the stored transactions with that id; empty when none is stored.
    func transactionApps(_ transactionID: String) async throws -> [String]
    /// Records the report (replacing an earlier one), with an audit row naming `actor`.
    func report(transactionID: String, consumption: ReportedConsumption, actor: String) async throws
}
