import AppStore
import Foundation
import HTTPClient
import Logging

/// One request to the API as the endpoints describe it, before a base URL is chosen.
struct AppStoreAPICall: Sendable {
    /// GET, POST, PUT or DELETE.
    var method: HTTPMethod
    /// The path after the base URL, already percent-encoded.
    var path: String
    /// The route template, for logs (never ids or tokens).
    var route: String
    /// Query items, percent-encoded here.
    var query: [(name: String, value: String)] = []
    /// A JSON body for POST and PUT.
    var body: [UInt8] = []
    /// The body's media type (Upload Image sends `image/png`).
    var contentType = "application/json"
    /// Which of Apple's limits it counts against.
    var rateClass: AppStoreAPIRateClass = .standard
}

/// What one environment said, once retries inside it are spent.
enum AppStoreAPIExchangeOutcome: Sendable {
    /// A 2xx answer's body.
    case answered([UInt8])
    /// 404 `TransactionIdNotFound`: this environment does not know the transaction.
    case transactionNotFound
}

extension AppStoreAPIClient {
    /// Apple's error codes meaning "not in this environment": `TransactionIdNotFound` and
    /// `OriginalTransactionIdNotFound`.
    static let notFoundErrorCodes: Set<Int> = [4_040_010, 4_040_005]

    /// Sends `call` to each of `environments` in turn until one knows the transaction, and
    /// decodes that answer. Throws `AppStoreAPIError` (`.notFound` when none knows it) or
    /// `CancellationError`.
    func perform<Answer>(
        _ call: AppStoreAPICall,
        in environments: [AppStoreEnvironment],
        logger: Logger?,
        decode: (AppStoreEnvironment, [UInt8]) async throws(AppStoreAPIError) -> Answer
    ) async throws -> Answer {
        let logger = logger ?? self.logger
        for environment in environments {
            switch try await exchange(call, in: environment, logger: logger) {
            case .answered(let body):
                return try await decode(environment, body)
            case .transactionNotFound:
                logger.debug(
                    "App Store Server API does not know the transaction here",
                    metadata: ["route": "\(call.route)", "environment": "\(environment.rawValue)"])
            }
        }
        throw AppStoreAPIError.notFound
    }

    /// One environment: rate limit, token, send, classify; 429 and 5xx are retried a few times.
    func exchange(_ call: AppStoreAPICall, in environment: AppStoreEnvironment, logger: Logger) async throws -> AppStoreAPIExchangeOutcome {
        guard environment != .xcode else {
            throw AppStoreAPIError.invalidRequest(reason: "StoreKit Testing in Xcode purchases are never looked up with Apple")
        }
        let limiter = rateLimiter(for: environment, call.rateClass)
        var rateLimitedCount = 0
        var failureCount = 0
        while true {
            do {
                try await limiter.acquire()
            } catch let overloaded as AppStoreAPIRateLimiter.Overloaded {
                // As a 429 would be: retryable once the queue has drained.
                let retryAfter = Date().addingTimeInterval(ContinuousClock.now.duration(to: overloaded.due).seconds)
                throw AppStoreAPIError.rateLimited(environment: environment, retryAfter: retryAfter)
            }
            let response: HTTPResponse
            do {
                response = try await http.execute(try request(call, in: environment), logger: logger)
            } catch let error as HTTPClientError {
                guard error.isRetryable else { throw AppStoreAPIError.misconfigured(environment: environment, reason: "\(error)") }
                guard failureCount < retries.upstreamRetries else {
                    throw AppStoreAPIError.unavailable(environment: environment, reason: "\(error)")
                }
                failureCount += 1
                try await Task.sleep(for: retries.delay(beforeRetry: failureCount))
                continue
            } catch let error as AppStoreAPIError {
                throw error
            } catch {
                try Task.checkCancellation()
                throw AppStoreAPIError.unavailable(environment: environment, reason: "the HTTP client is not running")
            }
            logger.debug(
                "App Store Server API answered",
                metadata: ["route": "\(call.route)", "environment": "\(environment.rawValue)", "status": "\(response.status)"])
            switch response.status {
            case 200..<300:
                return .answered(response.body)
            case 401:
                throw AppStoreAPIError.unauthorized(environment: environment)
            case 404 where Self.errorCode(in: response.body).map(Self.notFoundErrorCodes.contains) ?? false:
                return .transactionNotFound
            case 429:
                let retryAfter = RetryAfter.date(from: response.headers.first(named: "Retry-After"), now: Date())
                let wait = retryAfter.map { $0.timeIntervalSinceNow } ?? retries.delay(beforeRetry: rateLimitedCount + 1).seconds
                guard rateLimitedCount < retries.rateLimitRetries, wait <= retries.maximumRetryAfterWait.seconds else {
                    throw AppStoreAPIError.rateLimited(environment: environment, retryAfter: retryAfter)
                }
                rateLimitedCount += 1
                // Holding the bucket makes every request of this app wait, not only this one.
                await limiter.hold(until: .now + .milliseconds(Int64((max(wait, 0) * 1000).rounded(.up))))
            case 500..<600:
                guard failureCount < retries.upstreamRetries else {
                    throw AppStoreAPIError.unavailable(environment: environment, reason: "HTTP \(response.status)")
                }
                failureCount += 1
                try await Task.sleep(for: retries.delay(beforeRetry: failureCount))
            default:
                throw AppStoreAPIError.rejected(
                    environment: environment, status: response.status, errorCode: Self.errorCode(in: response.body))
            }
        }
    }

    /// The HTTP request for `call` in `environment`, with a (reused) bearer token.
    private func request(_ call: AppStoreAPICall, in environment: AppStoreEnvironment) throws(AppStoreAPIError) -> HTTPRequest {
        let token: String
        do {
            token = try tokens.token()
        } catch {
            throw .invalidPrivateKey
        }
        var url = baseURL(for: environment) + call.path
        if !call.query.isEmpty {
            url += "?" + call.query.map { "\(Self.percentEncoded($0.name))=\(Self.percentEncoded($0.value))" }.joined(separator: "&")
        }
        var headers = [
            HTTPHeader(name: "Authorization", value: "Bearer \(token)"),
            HTTPHeader(name: "Accept", value: "application/json"),
        ]
        if call.method == .post || call.method == .put {
            headers.append(HTTPHeader(name: "Content-Type", value: call.contentType))
        }
        return HTTPRequest(method: call.method, url: url, headers: headers, body: call.body, timeout: timeout)
    }

    /// Apple's numeric `errorCode` in an error body; its `errorMessage` is ignored on purpose.
    static func errorCode(in body: [UInt8]) -> Int? {
        (try? JSONDecoder().decode(AppStoreAPIWire.ErrorBody.self, from: Data(body)))?.errorCode
    }

    /// `text` with everything but unreserved characters (RFC 3986) percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
