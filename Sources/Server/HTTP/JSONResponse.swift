import Foundation
import HTTPTypes
import Hummingbird
import SubscriptiondCore

/// A response whose body is contract JSON.
struct JSONResponse<Document: Encodable & Sendable>: ResponseGenerator {
    var status: HTTPResponse.Status = .ok
    let document: Document

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        // The read endpoints' documents write their bytes directly (same bytes, no JSONEncoder).
        let body = if let writable = document as? any ContractJSONWritable {
            ByteBuffer(bytes: ContractJSONWriter.bytes(of: writable))
        } else {
            ByteBuffer(bytes: try ContractJSON.encode(document))
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}

/// A response whose body is contract JSON written earlier (a stored answer).
struct JSONBodyResponse: ResponseGenerator {
    let body: String

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
