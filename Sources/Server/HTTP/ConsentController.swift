import Access
import Foundation
import Hummingbird
import JSON
import Store
import UseCases

/// `PUT /v1/subscribers/{app_user_id}/consent {"consumption_data": true|false}`: the user's
/// consent to share consumption data when they ask Apple for a refund (without it, their
/// purchases' CONSUMPTION_REQUESTs are not answered). Answers
/// `{"app_user_id", "consumption_data", "updated_at"}`. And `PUT
/// /v1/purchases/{transaction_id}/consumption {"consumption_percentage", "delivery_status"}`:
/// what the app's backend knows of one purchase, sent to Apple instead of the app's defaults
/// when its customer asks for a refund. Answers `{"transaction_id", "consumption_percentage",
/// "delivery_status"}`.
struct ConsentController<Context: PrincipalRequestContext> {
    let consents: ConsumptionConsents
    let reports: ConsumptionReports
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<Context>) {
        group.add(.putConsent) { request, context in
            let appUserID = try context.parameters.requireDecoded("app_user_id")
            let body = try await QueryRequest.object(request, maxBytes: maxBodyBytes)
            guard case .bool(let consented)? = body["consumption_data"] else {
                throw APIError.malformed("consumption_data is required (true or false)")
            }
            let updatedAt = try await consents.set(appUserID: appUserID, consented: consented, actor: try context.requirePrincipal().actor)
            return try JSONResponse(document: ConsentResponse(appUserID: appUserID, consumptionData: consented, updatedAt: updatedAt))
        }
        // `PUT /v1/purchases/{transaction_id}/consumption {"consumption_percentage", "delivery_status"}`.
        group.add(.putPurchaseConsumption) { request, context in
            let transactionID = try context.parameters.requireDecoded("transaction_id")
            let body = try await QueryRequest.object(request, maxBytes: maxBodyBytes)
            let percentage: Decimal?
            switch body["consumption_percentage"] {
            case nil, .null?: percentage = nil
            case .number(let number)?:
                guard let value = Decimal(string: number.text, locale: Locale(identifier: "en_US_POSIX")) else {
                    throw APIError.malformed("consumption_percentage must be a number from 0 to 100")
                }
                percentage = value
            default: throw APIError.malformed("consumption_percentage must be a number from 0 to 100")
            }
            let delivery = try QueryRequest.optionalString(body, "delivery_status", maxLength: 64)
            let reported = try await reports.report(
                transactionID: transactionID, percentage: percentage, deliveryStatus: delivery, by: try context.requirePrincipal())
            return try JSONResponse(
                document: ConsumptionReportResponse(
                    transactionID: transactionID,
                    consumptionPercentage: reported.percentageMilliunits.map { Decimal($0) / 1_000 },
                    deliveryStatus: reported.deliveryStatus))
        }
    }
}

/// The answer of `PUT /v1/purchases/{transaction_id}/consumption`.
struct ConsumptionReportResponse: Encodable {
    let transactionID: String
    let consumptionPercentage: Decimal?
    let deliveryStatus: String?

    private enum CodingKeys: String, CodingKey {
        case transactionID = "transaction_id", consumptionPercentage = "consumption_percentage", deliveryStatus = "delivery_status"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(transactionID, forKey: .transactionID)
        try container.encode(consumptionPercentage, forKey: .consumptionPercentage)
        try container.encode(deliveryStatus, forKey: .deliveryStatus)
    }
}

/// The answer of `PUT /v1/subscribers/{id}/consent`.
struct ConsentResponse: Encodable {
    let appUserID: String
    let consumptionData: Bool
    let updatedAt: Date

    private enum CodingKeys: String, CodingKey {
        case appUserID = "app_user_id", consumptionData = "consumption_data", updatedAt = "updated_at"
    }
}
