import NIOCore
import NIOHTTPTypes
import Synchronization

/// How many connections each client address holds, with a cap: one address (a scanner, a
/// slow-loris) cannot take every connection the server has for Apple and the app's backend.
///
/// Behind a reverse proxy every connection comes from the proxy's address: raise the cap to
/// `HTTP_MAX_CONNECTIONS` there, or set it to 0 (no cap) and let the proxy limit clients.
final class ConnectionsPerAddress: Sendable {
    private let cap: Int
    private let counts = Mutex<[String: Int]>([:])

    /// A registry allowing `cap` connections per address (0: no cap).
    init(cap: Int) {
        self.cap = cap
    }

    /// Counts one more connection from `address`; false (nothing counted) when it holds the cap.
    func admit(_ address: String) -> Bool {
        counts.withLock { counts in
            let held = counts[address, default: 0]
            guard cap == 0 || held < cap else { return false }
            counts[address] = held + 1
            return true
        }
    }

    /// Forgets one connection from `address`.
    func release(_ address: String) {
        counts.withLock { counts in
            guard let held = counts[address] else { return }
            counts[address] = held > 1 ? held - 1 : nil
        }
    }
}

/// Counts a connection against its address while it is open; closes it at once when the
/// address already holds its cap.
final class ConnectionsPerAddressHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart

    private let registry: ConnectionsPerAddress
    private let onRefusal: @Sendable () -> Void
    private var counted: String?

    init(registry: ConnectionsPerAddress, onRefusal: @escaping @Sendable () -> Void = {}) {
        self.registry = registry
        self.onRefusal = onRefusal
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { count(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        count(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    private func count(_ context: ChannelHandlerContext) {
        guard counted == nil, let address = context.channel.remoteAddress?.ipAddress else { return }
        if registry.admit(address) {
            counted = address
        } else {
            onRefusal()
            context.close(promise: nil)
        }
    }

    private func release() {
        if let address = counted {
            registry.release(address)
            counted = nil
        }
    }
}
