import ContractDocuments
import Foundation
import HTTPTypes
import Hummingbird

/// A response whose body is contract JSON: a read document written by itself, or any
/// other `Encodable` document through `ContractJSON`.
struct JSONResponse: ResponseGenerator {
    var status: HTTPResponse.Status = .ok
    let body: [UInt8]

    init(status: HTTPResponse.Status = .ok, document: some ContractJSONWritable) {
        self.status = status
        body = ContractJSONWriter.bytes(of: document)
    }

    init(status: HTTPResponse.Status = .ok, document: some Encodable) throws {
        self.status = status
        body = Array(try ContractJSON.encode(document))
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
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
