import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basics plus the connection's channel,
/// which `ConnectionCloseMiddleware` needs to stop reading a body nobody wants.
public struct ServerRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}
