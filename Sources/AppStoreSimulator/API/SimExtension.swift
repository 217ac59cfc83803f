import Foundation

/// One renewal-date extension the developer asked for and Apple granted: the period that was
/// current then expires `days` later.
struct SimExtension: Sendable, Hashable {
    /// The request's `requestIdentifier` (lower-case).
    var requestIdentifier: String
    /// The customer and their subscription.
    var customerID: String
    var originalTransactionID: String
    /// The period that was extended.
    var transactionID: String
    var days: Int
    /// When it was granted.
    var date: Date
}

/// One "Extend Subscription Renewal Dates for All Active Subscribers" request.
struct SimMassExtension: Sendable, Hashable {
    var bundleID: String
    var environment: SimEnvironment
    var productID: String
    /// When Apple reports it complete (it works through subscribers for a while).
    var completeAt: Date
    var succeededCount: Int
    var failedCount: Int
}
