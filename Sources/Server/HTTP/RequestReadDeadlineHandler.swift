import NIOCore
import NIOHTTPTypes

/// Closes a connection whose next request has not been read whole (head and body) within
/// `limit`, however slowly its bytes trickle in.
///
/// The idle timer alone restarts on every byte, so a client sending one byte every 25 s
/// held a connection forever. This clock starts when the connection opens and again when
/// a response has been written, and stops only when a request's last part has arrived;
/// time spent answering does not count against the client.
final class RequestReadDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limit: TimeAmount
    private let onExpiry: @Sendable () -> Void
    private var timer: Scheduled<Void>?

    /// A handler closing connections after `limit`; `onExpiry` counts each closure.
    init(limit: TimeAmount, onExpiry: @escaping @Sendable () -> Void = {}) {
        self.limit = limit
        self.onExpiry = onExpiry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { disarm() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            // The next request's clock starts once this response is out.
            let written = promise ?? context.eventLoop.makePromise()
            // Completed on this channel's event loop, where the handler and its context live.
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            written.futureResult.whenSuccess {
                guard bound.value.channel.isActive else { return }
                handler.value.arm(bound.value)
            }
            context.write(data, promise: written)
        } else {
            context.write(data, promise: promise)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    private func arm(_ context: ChannelHandlerContext) {
        disarm()
        let onExpiry = self.onExpiry
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: limit) {
            onExpiry()
            context.close(promise: nil)
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}
