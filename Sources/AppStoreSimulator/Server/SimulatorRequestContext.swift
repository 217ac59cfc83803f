import Hummingbird
import NIOCore

/// Request context that keeps the connection's channel, so a fault can reset it.
struct SimulatorRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's connection.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
