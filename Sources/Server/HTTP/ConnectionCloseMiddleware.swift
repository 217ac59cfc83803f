import Foundation
import Hummingbird
import NIOCore

/// Closes the connection after a `413`: the refused body is still on its way, and reading it
/// only to throw it away would let a client hold the connection (and a worker of ours) for
/// as long as it keeps sending. The answer says `Connection: close`, and the channel is
/// closed once its last byte is flushed (writes and the close run in order on the channel's
/// event loop, and a small answer leaves with its flush).
struct ConnectionCloseMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError where error.status == .contentTooLarge {
            let answer = try error.response(from: request, context: context)
            var headers = answer.headers
            headers[.connection] = "close"
            let channel = context.channel
            let bytes = try JSONEncoder().encode(["error": error.code, "message": error.message])
            return Response(status: answer.status, headers: headers, body: ResponseBody(contentLength: bytes.count) { writer in
                try await writer.write(ByteBuffer(bytes: bytes))
                try await writer.finish(nil)
                channel.close(promise: nil)
            })
        }
    }
}
