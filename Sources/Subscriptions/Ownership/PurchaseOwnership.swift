/// Who owns one purchase (a subscription or a one-time purchase) after a claim: the pure rule
/// behind every link, whatever proved the purchase (a receipt, a signed transaction, a lookup,
/// a notification).
///
/// - An `appAccountToken` binds its user when subscriptiond handed it out (`GET
///   …/app-account-token`) or when it equals the id of an app user who exists here (apps that
///   use their own UUIDs as user ids, as RevenueCat's SDK does). That user owns the purchase
///   under every policy: proving it for anyone else is refused, and under `transfer` and
///   `refuse` the others are unlinked (under `share` they stay).
/// - A token naming nobody here is only a hint: the user whose id it is is linked when nobody
///   owns the purchase and nobody claims it (or under `share`); it never refuses or unlinks anyone.
/// - A forgotten user's token names nobody, ever: the purchase links as if it carried none.
/// - A user claiming the purchase (the app's backend posted it for them) is linked; under
///   `transfer` every other owner is unlinked, under `share` they stay, and under `refuse`
///   the claim fails when someone else already owns it.
/// - Facts without a claimant (a notification, a revalidation) change links only through a token.
public enum PurchaseOwnership {
    /// What the purchase's newest `appAccountToken` says.
    public enum Token: Sendable, Equatable {
        /// A token subscriptiond handed out for this user.
        case issued(to: String)
        /// A token equal to the id of an app user who exists here: that user.
        case existingUser(String)
        /// A token naming nobody here: the user whose id it would be, a hint.
        case userID(String)
        /// The token of a user who was forgotten (`DELETE /v1/subscribers/{id}`): nobody.
        case forgotten

        /// The user the token binds the purchase to, if it binds one.
        var boundUser: String? {
            switch self {
            case .issued(let user), .existingUser(let user): user
            case .userID, .forgotten: nil
            }
        }
    }

    /// The links to add and remove.
    public struct Change: Sendable, Equatable {
        public var link: [String]
        public var unlink: [String]
        /// Those of `link` linked only because a hint names them: such a link does not make the
        /// user one "who exists here", or a hint would make itself binding.
        public var linkedByHint: [String]

        public init(link: [String] = [], unlink: [String] = [], linkedByHint: [String] = []) {
            self.link = link
            self.unlink = unlink
            self.linkedByHint = linkedByHint
        }

        /// Nothing changes.
        public var isEmpty: Bool { link.isEmpty && unlink.isEmpty }
    }

    /// A claim that may not link: the purchase belongs to someone else.
    public struct Refusal: Error, Sendable, Equatable {
        /// Why, without naming the owner.
        public let reason: String
    }

    /// The change `claimant`'s proof (nil: facts without a user) makes to a purchase owned by
    /// `owners`, whose newest token is `token`, under `policy`.
    public static func change(
        policy: LinkPolicy, claimant: String?, token: Token?, owners: Set<String>
    ) throws(Refusal) -> Change {
        if let holder = token?.boundUser {
            if let claimant, claimant != holder {
                throw Refusal(reason: "the purchase was made with another user's app account token")
            }
            let others = policy == .share ? [] : owners.subtracting([holder]).sorted()
            return Change(link: owners.contains(holder) ? [] : [holder], unlink: others)
        }
        var change = Change()
        if case .userID(let named) = token, named != claimant, !owners.contains(named),
            policy == .share || (claimant == nil && owners.isEmpty)
        {
            change.link.append(named)
            change.linkedByHint.append(named)
        }
        guard let claimant, !owners.contains(claimant) else { return change }
        switch policy {
        case .share:
            change.link.append(claimant)
        case .transfer:
            change.link.append(claimant)
            change.unlink = owners.sorted()
        case .refuse:
            guard owners.isEmpty else {
                throw Refusal(reason: "the purchase belongs to another user, and this app's link_policy is refuse")
            }
            change.link.append(claimant)
        }
        change.link.sort()
        return change
    }
}
