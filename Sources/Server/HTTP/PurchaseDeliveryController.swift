import AppStore
import Foundation
import Hummingbird
import Store
import UseCases

/// `POST /v1/purchases/{transaction_id}/delivered`: the app's backend delivered a consumable,
/// so subscriptiond tells Apple with Finish Transaction (apps with `finish_transactions`).
/// Answers the purchase's finish as it stands: `due` until Apple takes it, then `finished`.
struct PurchaseDeliveryController<Context: PrincipalRequestContext> {
    let finishing: TransactionFinishing

    func addRoutes(to group: RouterGroup<Context>) {
        group.add(.postPurchaseDelivered) { _, context in
            let transactionID = try context.parameters.requireDecoded("transaction_id")
            let finish = try await finishing.delivered(transactionID: transactionID, by: try context.requirePrincipal())
            return try JSONResponse(document: TransactionFinishResponse(finish))
        }
    }
}

/// One purchase's Finish Transaction: `{"transaction_id", "environment", "finish", "attempts", "finished_at"}`.
struct TransactionFinishResponse: Encodable {
    let finish: TransactionFinish

    init(_ finish: TransactionFinish) {
        self.finish = finish
    }

    private enum CodingKeys: String, CodingKey {
        case transactionID = "transaction_id", environment, finish, attempts, finishedAt = "finished_at"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(finish.transactionID, forKey: .transactionID)
        try container.encode(finish.environment.rawValue, forKey: .environment)
        try container.encode(finish.state.rawValue, forKey: .finish)
        try container.encode(finish.attempts, forKey: .attempts)
        try container.encode(finish.finishedAt, forKey: .finishedAt)
    }
}
