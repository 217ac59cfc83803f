import NIOCore
import NIOHTTP1

/// Writes the request once the connection is up and collects the answer.
final class OneShotHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let head: HTTPRequestHead
    private let body: [UInt8]
    private let promise: EventLoopPromise<SimHTTPResponse>
    private var status: Int?
    private var headers: [String: String] = [:]
    private var collected: [UInt8] = []

    init(head: HTTPRequestHead, body: [UInt8], promise: EventLoopPromise<SimHTTPResponse>) {
        self.head = head
        self.body = body
        self.promise = promise
    }

    func channelActive(context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let responseHead):
            status = Int(responseHead.status.code)
            for (name, value) in responseHead.headers {
                headers[name.lowercased()] = value
            }
        case .body(var buffer):
            collected += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            promise.succeed(SimHTTPResponse(status: status ?? 0, body: collected, headers: headers))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(SimHTTPError.connectionClosed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }
}
