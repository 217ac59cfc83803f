/// The apps a principal sees: every app of the deployment, or only some bundle ids.
public enum AppScope: Sendable, Equatable {
    /// Every app, today's and those configured later.
    case all
    /// Only these bundle ids.
    case only(Set<String>)

    /// The scope of a stored list of bundle ids: every app when the list is empty.
    public init(bundleIDs: [String]) {
        self = bundleIDs.isEmpty ? .all : .only(Set(bundleIDs))
    }

    /// True when the principal sees `bundleID`.
    public func contains(_ bundleID: String) -> Bool {
        switch self {
        case .all: true
        case .only(let bundleIDs): bundleIDs.contains(bundleID)
        }
    }

    /// The bundle ids, sorted; empty for every app.
    public var bundleIDs: [String] {
        switch self {
        case .all: []
        case .only(let bundleIDs): bundleIDs.sorted()
        }
    }
}
