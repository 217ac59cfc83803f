import Foundation

/// One source that grants an entitlement now, and until when.
public struct EntitlementCandidate: Sendable, Hashable {
    /// What grants it.
    public var source: EntitlementSource
    /// The product that grants it; `nil` for `grandfathered` and `grant`.
    public var productID: String?
    /// When it stops granting; `nil` for never.
    public var expiresAt: Date?
    /// The environment of the fact; `nil` for `grant`.
    public var environment: SimEnvironment?

    /// A candidate from its parts.
    public init(source: EntitlementSource, productID: String?, expiresAt: Date?, environment: SimEnvironment?) {
        self.source = source
        self.productID = productID
        self.expiresAt = expiresAt
        self.environment = environment
    }

    /// Whether `self` wins over `other`: it lasts longer (never ending beats any date, a later
    /// date an earlier one), else its source comes first, else its product id sorts first.
    public func beats(_ other: EntitlementCandidate) -> Bool {
        switch (expiresAt, other.expiresAt) {
        case (nil, .some): return true
        case (.some, nil): return false
        case (let mine?, let theirs?) where mine != theirs: return mine > theirs
        default: break
        }
        if source != other.source { return source < other.source }
        return (productID ?? "") < (other.productID ?? "")
    }
}
