import AppStoreSignature
import HTTPClient
import Logging

/// One App Store Server API client per configured app that has an API key.
public struct AppStoreAPIDirectory: Sendable {
    private let clients: [String: AppStoreAPIClient]

    /// A directory of these clients, keyed by bundle id.
    public init(clients: [String: AppStoreAPIClient]) {
        self.clients = clients
    }

    /// The same apps' clients over `http`, sharing their tokens and rate limiters
    /// (``AppStoreAPIClient/over(_:)``).
    public func over(_ http: CurlHTTPClient) -> AppStoreAPIDirectory {
        AppStoreAPIDirectory(clients: clients.mapValues { $0.over(http) })
    }

    /// The client of one app, if it has an API key.
    public func client(bundleID: String) -> AppStoreAPIClient? { clients[bundleID] }

    /// The bundle ids of the apps with an API key, sorted.
    public var bundleIDs: [String] { clients.keys.sorted() }
}
