import Foundation

/// One answer of the console's customer search: a customer, or a purchase, that the text
/// names exactly, with the user the purchase is linked to.
public struct CustomerMatch: Sendable, Equatable, Hashable {
    /// What the searched text was found as, in the order the answers come in.
    public enum Field: String, Sendable, CaseIterable {
        /// An app user id known here (a link, a grant or a recorded original application version).
        case appUserID
        /// A purchase's original transaction id.
        case originalTransactionID
        /// One transaction of a purchase.
        case transactionID
        /// An app account token: issued here for a user, or carried by a purchase.
        case appAccountToken
    }

    /// What the text was found as.
    public let matchedBy: Field
    /// The user: the one searched for, or one linked to the purchase found (a purchase linked
    /// to several users gives one match per user); nil for a purchase nobody is linked to.
    public let appUserID: String?
    /// The purchase, nil for a user known without any (grants only, or a token not yet used).
    public let originalTransactionID: String?
    /// The purchase's environment (`Production`, `Sandbox`, `Xcode`), nil without a purchase.
    public let environment: String?
    /// The purchase's product now: its subscription's, else its newest transaction's.
    public let productID: String?

    /// A match of `matchedBy` for `appUserID` and the purchase given.
    public init(
        matchedBy: Field, appUserID: String?, originalTransactionID: String? = nil, environment: String? = nil, productID: String? = nil
    ) {
        self.matchedBy = matchedBy
        self.appUserID = appUserID
        self.originalTransactionID = originalTransactionID
        self.environment = environment
        self.productID = productID
    }
}
