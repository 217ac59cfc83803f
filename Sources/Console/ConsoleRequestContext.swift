import Hummingbird

/// What the console needs of a request's context beyond Hummingbird's: the client's address,
/// which failed sign-ins are counted by.
public protocol ConsoleRequestContext: RequestContext {
    /// The client's IP address as the connection shows it ("unknown" when there is none).
    var clientAddress: String { get }
}
