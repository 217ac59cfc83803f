import AppStore
import Foundation
import Subscriptions

/// A fixed origin for test clocks: every test date is `t0` plus some days.
let t0 = Date(timeIntervalSince1970: 1_700_000_000)

/// `t0` plus `days` days.
func day(_ days: Double) -> Date {
    t0.addingTimeInterval(days * 86_400)
}

/// A monthly-ish subscription period of original transaction `original`, from day `from` to day `to`.
func period(
    _ id: String,
    original: String = "1000",
    product: String = "pro.monthly",
    from: Double,
    to: Double?,
    trial: Bool = false,
    intro: Bool = false,
    upgraded: Bool = false,
    cancelledOn: Double? = nil,
    reason: String? = nil,
    group: String? = "20500000",
    environment: AppStoreEnvironment = .production
) -> TransactionFact {
    TransactionFact(
        transactionID: id,
        originalTransactionID: original,
        productID: product,
        bundleID: "com.example.app",
        environment: environment,
        subscriptionGroupID: group,
        purchaseDate: day(from),
        originalPurchaseDate: day(0),
        expiresDate: to.map(day),
        isTrialPeriod: trial,
        isInIntroOfferPeriod: intro,
        isUpgraded: upgraded,
        cancellationDate: cancelledOn.map(day),
        cancellationReason: reason
    )
}

/// Renewal info for original transaction `original`, said on day `observedOn`.
func renewal(
    original: String = "1000",
    autoRenew: Bool? = true,
    intent: ExpirationIntent? = nil,
    retrying: Bool = false,
    graceUntil: Double? = nil,
    observedOn: Double,
    nextProduct: String? = "pro.monthly"
) -> RenewalFact {
    RenewalFact(
        originalTransactionID: original,
        bundleID: "com.example.app",
        environment: .production,
        productID: "pro.monthly",
        autoRenewProductID: nextProduct,
        autoRenewStatus: autoRenew,
        expirationIntent: intent,
        isInBillingRetryPeriod: retrying,
        gracePeriodExpiresDate: graceUntil.map(day),
        observedAt: day(observedOn)
    )
}

/// The snapshot of original transaction "1000" at day `now`.
func status(_ facts: [TransactionFact], _ renewal: RenewalFact? = nil, on now: Double) -> SubscriptionSnapshot? {
    SubscriptionStatusRule.snapshot(originalTransactionID: "1000", transactions: facts, renewal: renewal, at: day(now))
}

/// A small deterministic generator so shuffled-order tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Locates `shared/fixtures/realworld` from this file's real path (see AppStoreTests/Fixtures.swift).
enum RealWorld {
    static let root: URL = {
        var dir = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while dir.pathComponents.count > 1 {
            let candidate = dir.deletingLastPathComponent().appendingPathComponent("shared/fixtures/realworld")
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path),
                FileManager.default.fileExists(atPath: candidate.path)
            {
                return candidate
            }
            dir.deleteLastPathComponent()
        }
        fatalError("shared/fixtures/realworld not found above \(#filePath)")
    }()

    static func notification(_ file: String) throws -> NotificationV1 {
        try NotificationV1.decode(from: Array(Data(contentsOf: root.appendingPathComponent("v1/\(file)"))))
    }

    static func verify(_ file: String) throws -> VerifyReceiptResponse {
        try VerifyReceiptResponse.decode(from: Array(Data(contentsOf: root.appendingPathComponent("verifyReceipt/\(file)"))))
    }
}

/// Milliseconds since 1970 as a date.
func ms(_ millis: Double) -> Date {
    Date(timeIntervalSince1970: millis / 1000)
}
