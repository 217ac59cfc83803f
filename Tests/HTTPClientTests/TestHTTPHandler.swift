import NIOCore
import NIOHTTP1

/// Serves the test routes:
/// `POST /echo` (body back, plus the request's Content-Type and Accept as `x-echo-*`),
/// `GET /status/{code}`, `GET /slow/{ms}`, `GET /large/{bytes}` (with Content-Length)
/// and `GET /chunked/{bytes}` (chunked, no length). Anything else is a 404.
final class TestHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
        case .body(var chunk):
            body.writeBuffer(&chunk)
        case .end:
            if let head { route(head, context: context) }
        }
    }

    private func route(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let parts = head.uri.split(separator: "/").map(String.init)
        let number = parts.count > 1 ? Int(parts[1]) : nil
        switch (head.method, parts.first, number) {
        case (.POST, "echo", _), (.PUT, "echo", _):
            var headers = HTTPHeaders()
            headers.add(name: "x-echo-content-type", value: head.headers["Content-Type"].first ?? "")
            headers.add(name: "x-echo-accept", value: head.headers["Accept"].first ?? "")
            headers.add(name: "x-echo-method", value: head.method.rawValue)
            respond(context: context, status: .ok, headers: headers, body: body)
        case (.GET, "status", let code?):
            respond(context: context, status: HTTPResponseStatus(statusCode: code), body: ByteBuffer(string: "status"))
        case (.GET, "slow", let milliseconds?):
            context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(milliseconds))) {
                guard context.channel.isActive else { return }
                self.respond(context: context, status: .ok, body: ByteBuffer(string: "slow"))
            }
        case (.GET, "large", let count?):
            respond(context: context, status: .ok, body: ByteBuffer(bytes: TestPayload.bytes(count)))
        case (.GET, "chunked", let count?):
            respond(context: context, status: .ok, body: ByteBuffer(bytes: TestPayload.bytes(count)), chunked: true)
        default:
            respond(context: context, status: .notFound, body: ByteBuffer(string: "not found"))
        }
    }

    private func respond(
        context: ChannelHandlerContext,
        status: HTTPResponseStatus,
        headers: HTTPHeaders = [:],
        body: ByteBuffer,
        chunked: Bool = false
    ) {
        var headers = headers
        // Without Content-Length NIO frames the body with chunked encoding.
        if !chunked { headers.add(name: "Content-Length", value: "\(body.readableBytes)") }
        let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        // Several body parts, so the client's write callback sees many small chunks.
        var remaining = body
        while let slice = remaining.readSlice(length: min(remaining.readableBytes, 65_536)), slice.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(.byteBuffer(slice))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
