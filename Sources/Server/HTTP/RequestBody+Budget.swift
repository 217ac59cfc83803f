import Hummingbird

extension RequestBody {
    /// Reads a JSON body as `json(_:maxBytes:)` does, holding its bytes against `budget` from
    /// before the first is read until `use` returns (or anything fails).
    ///
    /// A declared `Content-Length` is reserved whole first; a body without one reserves what
    /// has arrived, `InflightBodyBudget.Reservation.step` at a time. When the budget has no
    /// room the answer is 503 `overloaded` with `Retry-After`, and nothing more is read.
    static func json<T>(
        _ request: Request, maxBytes: Int, within budget: InflightBodyBudget, _ use: ([UInt8]) async throws -> T
    ) async throws -> T {
        let declared = request.headers[.contentLength].flatMap(Int.init)
        if let declared, declared > maxBytes { throw APIError.tooLarge(maxBytes) }
        try checkContentType(request.headers[.contentType])
        var reservation = InflightBodyBudget.Reservation(budget)
        defer { reservation.release() }
        var bytes: [UInt8] = []
        if let declared {
            try reservation.grow(to: declared)
            bytes.reserveCapacity(declared)
        }
        for try await chunk in request.body {
            let total = bytes.count + chunk.readableBytes
            guard total <= maxBytes else { throw APIError.tooLarge(maxBytes) }
            if total > reservation.bytes {
                try reservation.grow(to: min(maxBytes, max(total, reservation.bytes + InflightBodyBudget.Reservation.step)))
            }
            bytes.append(contentsOf: chunk.readableBytesView)
        }
        return try await use(bytes)
    }
}
