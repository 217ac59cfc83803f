/// An App Store storefront the simulator sells in: Apple's three-letter code (v2's
/// `storefront`), its numeric id (`storefrontId`) and the currency it charges in.
public struct SimStorefront: Sendable, Hashable {
    /// ISO 3166-1 alpha-3, e.g. `USA`.
    public var code: String
    /// Apple's storefront id, e.g. `143441`.
    public var id: String
    /// ISO 4217, e.g. `USD`.
    public var currency: String

    /// A storefront from its parts.
    public init(code: String, id: String, currency: String) {
        self.code = code
        self.id = id
        self.currency = currency
    }

    /// The United States, where customers shop unless their spec says otherwise.
    public static let usa = SimStorefront(code: "USA", id: "143441", currency: "USD")

    /// The storefronts the simulator knows, with Apple's ids.
    public static let known: [SimStorefront] = [
        usa,
        SimStorefront(code: "DEU", id: "143443", currency: "EUR"),
        SimStorefront(code: "FRA", id: "143442", currency: "EUR"),
        SimStorefront(code: "GBR", id: "143444", currency: "GBP"),
        SimStorefront(code: "JPN", id: "143462", currency: "JPY"),
        SimStorefront(code: "CAN", id: "143455", currency: "CAD"),
    ]

    /// The storefront with `code`; an unknown code gets a made-up id and USD.
    public static func named(_ code: String) -> SimStorefront {
        known.first { $0.code == code } ?? SimStorefront(code: code, id: "0", currency: "USD")
    }
}
