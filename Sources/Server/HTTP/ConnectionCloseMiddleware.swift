import Foundation
import Hummingbird
import NIOCore

/// Closes the connection after a `413`, or a 503 `overloaded` (the body budget was full): the
/// refused body is still on its way, and reading it only to throw it away would let a client
/// hold the connection (and a worker of ours) for as long as it keeps sending. The answer
/// says `Connection: close`; the connection is half-closed once its last byte is written and
/// fully closed two seconds later, whatever the client still sends.
struct ConnectionCloseMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError where error.status == .contentTooLarge || error == .overloaded {
            let answer = try error.response(from: request, context: context)
            var headers = answer.headers
            headers[.connection] = "close"
            let channel = context.channel
            let bytes = try JSONEncoder().encode(["error": error.code, "message": error.message])
            return Response(
                status: answer.status, headers: headers,
                body: ResponseBody(contentLength: bytes.count) { writer in
                    try await writer.write(ByteBuffer(bytes: bytes))
                    try await writer.finish(nil)
                    // A lingering close: send FIN after the answer, keep discarding what still
                    // arrives for a moment, then close. Closing at once with unread input would
                    // reset the connection, and the client could lose the answer.
                    channel.close(mode: .output, promise: nil)
                    channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
                })
        }
    }
}
