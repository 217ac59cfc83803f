/// What a console user can do to the deployment's data, each allowed from one role up
/// (DESIGN.md, "Console"): support changes one customer's access; only an admin deletes a
/// customer, replays dead work or manages API keys. Reading is every role's.
public enum ConsoleAction: String, CaseIterable, Sendable {
    case grant, revokeGrant, recheck, unlink
    case deleteCustomer, replay, manageKeys

    /// The least role that may do it.
    public var leastRole: ConsoleRole {
        switch self {
        case .grant, .revokeGrant, .recheck, .unlink: .support
        case .deleteCustomer, .replay, .manageKeys: .admin
        }
    }
}

extension ConsoleRole {
    /// Roles in order of what they may do.
    private var rank: Int {
        switch self {
        case .viewer: 0
        case .support: 1
        case .admin: 2
        }
    }

    /// True when a user of this role may do `action`.
    public func may(_ action: ConsoleAction) -> Bool {
        rank >= action.leastRole.rank
    }
}
