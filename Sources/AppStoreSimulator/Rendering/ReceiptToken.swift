import Foundation

/// The receipts the simulator issues: base64 of a small JSON naming the customer, the
/// environment and a nonce, so every `latest_receipt` is fresh yet leads to the same customer.
struct ReceiptToken: Sendable, Hashable, Codable {
    /// Marks the simulator's receipts.
    var sim = 1
    /// The customer's id.
    var customer: String
    /// `Production` or `Sandbox`.
    var environment: SimEnvironment
    /// Makes each issued receipt distinct.
    var nonce: Int

    /// The base64 receipt text.
    var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try! encoder.encode(self)).base64EncodedString()
    }

    /// Reads a receipt; `nil` for anything the simulator did not issue (Apple's 21002).
    init?(encoded text: String) {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            let token = try? JSONDecoder().decode(ReceiptToken.self, from: data),
            token.sim == 1
        else { return nil }
        self = token
    }

    init(customer: String, environment: SimEnvironment, nonce: Int) {
        self.customer = customer
        self.environment = environment
        self.nonce = nonce
    }
}
