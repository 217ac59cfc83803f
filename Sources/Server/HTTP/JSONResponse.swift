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
        return Response(status: status, headers: headers, body: .init(byteBuffer: .init(bytes: try ContractJSON.encode(document))))
    }
}
