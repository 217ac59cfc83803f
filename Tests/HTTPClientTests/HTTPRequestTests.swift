import Testing

@testable import HTTPClient

/// The request conveniences and the timeout conversion handed to libcurl.
@Suite struct HTTPRequestTests {
    @Test func postJSONSetsJSONHeaders() {
        let request = HTTPRequest.postJSON(url: "https://example.test/v1", body: [1, 2], timeout: .seconds(3))
        #expect(request.method == .post)
        #expect(request.body == [1, 2])
        #expect(request.headers.first(named: "content-type") == "application/json")
        #expect(request.headers.first(named: "accept") == "application/json")
        #expect(request.timeout == .seconds(3))
    }

    @Test func getHasNoBodyOrHeaders() {
        let request = HTTPRequest.get(url: "https://example.test/", timeout: .milliseconds(250))
        #expect(request.method == .get)
        #expect(request.body.isEmpty)
        #expect(request.headers.isEmpty)
    }

    @Test(arguments: [
        (Duration.milliseconds(200), 200),
        (.seconds(2), 2000),
        (.microseconds(1500), 1),
        (.zero, 1),
        (.seconds(-5), 1),
    ])
    func curlMillisecondsNeverZero(duration: Duration, expected: Int) {
        #expect(duration.curlMilliseconds == expected)
    }
}
