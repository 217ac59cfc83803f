import Access
import Foundation
import Store
import Subscriptions

/// `PUT /v1/purchases/{transaction_id}/consumption`: what the app's backend knows of one
/// purchase (how much of it was consumed, whether it was delivered), sent to Apple with Send
/// Consumption Information V2 instead of the app's `consumption` defaults when the customer
/// asks for a refund.
public struct ConsumptionReports: Sendable {
    private let repository: any ConsumptionReportRepository

    public init(repository: any ConsumptionReportRepository) {
        self.repository = repository
    }

    /// Records `percentage` (0 to 100, to the thousandth; Apple's `consumptionPercentage`) and
    /// `deliveryStatus` (Apple's values, e.g. `DELIVERED`) for the stored purchase `transactionID`
    /// of an app `principal` sees.
    public func report(
        transactionID: String, percentage: Decimal?, deliveryStatus: String?, by principal: Principal
    ) async throws -> ReportedConsumption {
        guard principal.may(.write) else { throw UseCaseError.forbidden("reporting consumption needs the write scope") }
        guard percentage != nil || deliveryStatus != nil else {
            throw UseCaseError.malformed("give consumption_percentage, delivery_status or both")
        }
        let milliunits = try percentage.map { value -> Int in
            let scaled = value * 1_000
            guard value >= 0, value <= 100, scaled == scaled.rounded(0) else {
                throw UseCaseError.malformed("consumption_percentage must be 0 to 100, to the thousandth, got \(value)")
            }
            return NSDecimalNumber(decimal: scaled).intValue
        }
        if let deliveryStatus, ConsumptionPolicy.DeliveryStatus(rawValue: deliveryStatus) == nil {
            throw UseCaseError.malformed(
                "delivery_status must be one of "
                    + ConsumptionPolicy.DeliveryStatus.allCases.map(\.rawValue).joined(separator: ", ") + ", got \(deliveryStatus)")
        }
        // A key limited to apps reports only for their purchases: another app's is as unknown to it.
        guard try await repository.transactionApps(transactionID).contains(where: principal.sees) else {
            throw UseCaseError.notFound("no stored purchase has transaction_id \(transactionID)")
        }
        let consumption = ReportedConsumption(percentageMilliunits: milliunits, deliveryStatus: deliveryStatus)
        try await repository.report(transactionID: transactionID, consumption: consumption, actor: principal.actor)
        return consumption
    }
}

extension Decimal {
    /// The value rounded to `places` decimals (half away from zero).
    fileprivate func rounded(_ places: Int) -> Decimal {
        var value = self
        var result = Decimal()
        NSDecimalRound(&result, &value, places, .plain)
        return result
    }
}
