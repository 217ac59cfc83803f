import HTTPTypes
import Hummingbird
import NIOCore

/// `{"id":N,"status":"accepted"|"duplicate"}`: intake's answer, written by hand because it is
/// sent once per notification and has two fixed members (the same bytes `ContractJSON`
/// writes: compact, keys sorted).
struct IntakeAnswer: ResponseGenerator, Sendable, Equatable {
    /// Whether the notification was stored now or had been before.
    enum Status: String, Sendable {
        case accepted
        case duplicate
    }

    let status: Status
    let id: Int64

    /// The JSON text of the answer.
    var json: String { #"{"id":\#(id),"status":"\#(status.rawValue)"}"# }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: json)))
    }
}
