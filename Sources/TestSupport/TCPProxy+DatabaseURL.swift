import Foundation

extension TCPProxy {
    /// A proxy in front of the server that `databaseURL` names (host and port from the URL,
    /// port 5432 when absent).
    public convenience init(forwardingTo databaseURL: String) throws {
        guard let components = URLComponents(string: databaseURL), let host = components.host else {
            throw TCPSocket.Failure(operation: "reading host from DATABASE_URL", code: EINVAL)
        }
        try self.init(targetHost: host, targetPort: components.port ?? 5432)
    }

    /// `databaseURL` with its host and port replaced by the proxy's, so a client connects through it.
    public func url(through databaseURL: String) -> String {
        guard var components = URLComponents(string: databaseURL) else { return databaseURL }
        components.host = "127.0.0.1"
        components.port = port
        return components.string ?? databaseURL
    }
}
