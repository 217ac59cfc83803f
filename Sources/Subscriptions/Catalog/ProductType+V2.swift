import AppStore

extension ProductType {
    /// The catalog's name for the type a signed transaction states.
    public init(_ type: ProductTypeV2) {
        switch type {
        case .autoRenewable: self = .autoRenewable
        case .nonRenewing: self = .nonRenewing
        case .consumable: self = .consumable
        case .nonConsumable: self = .nonConsumable
        }
    }
}
