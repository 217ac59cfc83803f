import Testing

@testable import HTTPClient

/// Retry classification and safe descriptions, without any I/O.
@Suite struct HTTPClientErrorTests {
    @Test(arguments: [
        (HTTPClientError.Kind.timeout, true),
        (.connectionRefused, true),
        (.couldNotResolveHost, true),
        (.transport, true),
        (.httpStatus(500), true),
        (.httpStatus(503), true),
        (.httpStatus(429), true),
        (.httpStatus(404), false),
        (.httpStatus(400), false),
        (.tls, false),
        (.tlsHandshake, true),
        (.invalidURL, false),
        (.responseTooLarge, false),
    ])
    func retryability(kind: HTTPClientError.Kind, retryable: Bool) {
        #expect(HTTPClientError(kind: kind).isRetryable == retryable)
    }

    @Test func descriptionHidesCurlDetail() {
        let detail = "error:0A00010B:SSL routines::wrong version number"
        let error = HTTPClientError(kind: .tls, curlCode: 35, detail: detail)
        #expect(error.description == "HTTPClientError.tls")
        #expect(error.debugDescription.contains("CURLcode 35"))
        #expect(error.debugDescription.contains("wrong version number"))
    }

    @Test func httpStatusFactory() {
        let error = HTTPClientError.httpStatus(503)
        #expect(error.kind == .httpStatus(503))
        #expect(error.description == "HTTPClientError.httpStatus(503)")
    }
}
