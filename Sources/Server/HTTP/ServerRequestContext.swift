import Access
import Console
import Hummingbird
import NIOCore

/// A request context that carries who is asking, once `APIKeyMiddleware` has said so.
public protocol PrincipalRequestContext: RequestContext {
    /// The principal of the request's key; nil before authentication (and on routes without it).
    var principal: Principal? { get set }
}

extension PrincipalRequestContext {
    /// The request's principal; a route under `APIKeyMiddleware` always has one.
    func requirePrincipal() throws -> Principal {
        guard let principal else { throw APIError.unauthorized("missing Authorization: Bearer <key>") }
        return principal
    }
}

/// The request context of every route: Hummingbird's basics, the connection's channel (which
/// `ConnectionCloseMiddleware` needs to stop reading a body nobody wants) and the principal.
public struct ServerRequestContext: PrincipalRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    public let channel: any Channel
    public var principal: Principal?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}

extension ServerRequestContext: ConsoleRequestContext {
    public var clientAddress: String {
        channel.remoteAddress?.ipAddress ?? "unknown"
    }
}
