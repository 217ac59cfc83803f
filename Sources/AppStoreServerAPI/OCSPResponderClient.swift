import AppStoreSignature
import HTTPClient

/// Asks OCSP responders through libcurl, for ``RevocationChecking`` (`APPSTORE_ONLINE_CHECKS`).
///
/// One POST of the DER request per question (RFC 6960, appendix A). Only a 200 answer is
/// an answer: a transport failure, another status or the deadline throws, which the check
/// treats as "no answer" (retry later), never as "good". The client refuses every scheme but
/// http and https, and follows no redirect.
public struct OCSPResponderClient: Sendable {
    private let http: CurlHTTPClient
    private let timeout: Duration

    /// Asks over `http`, giving each question `timeout` (the OCSP policy stops waiting at 10 s).
    public init(http: CurlHTTPClient, timeout: Duration = .seconds(10)) {
        self.http = http
        self.timeout = timeout
    }

    /// The DER answer of the responder at `uri` to `request`.
    public func query(_ request: [UInt8], uri: String) async throws -> [UInt8] {
        let question = HTTPRequest(
            method: .post, url: uri,
            headers: [
                HTTPHeader(name: "Content-Type", value: "application/ocsp-request"),
                HTTPHeader(name: "Accept", value: "application/ocsp-response"),
            ],
            body: request, timeout: timeout
        )
        return try await http.executeExpectingSuccess(question).body
    }

    /// Revocation checking that asks through this client.
    public var revocationChecking: RevocationChecking {
        RevocationChecking { request, uri in try await query(request, uri: uri) }
    }
}
