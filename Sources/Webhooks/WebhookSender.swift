import Foundation
import HTTPClient
import Logging
import Settings
import Store

/// Sends one event to its receiver and says what came of it. Never throws: every failure
/// is an outcome with a short reason (the receiver's body is never kept beyond an excerpt).
public struct WebhookSender: Sendable {
    /// What one delivery attempt came to.
    public enum Outcome: Sendable, Equatable {
        /// The receiver answered 2xx.
        case acknowledged(status: Int)
        /// Anything else: another status (with it), a refused connection, a timeout.
        case failed(status: Int?, reason: String)
    }

    private let http: CurlHTTPClient
    private let timeout: Duration

    /// Creates a sender over its own HTTP client (so deliveries never wait for the worker's transfers).
    public init(http: CurlHTTPClient, timeout: Duration) {
        self.http = http
        self.timeout = timeout
    }

    /// POSTs the event's body to `target`, signed with each of its secrets (``WebhookHeaders``).
    public func send(_ event: WebhookEvent, to target: WebhookTarget, now: Date = Date(), logger: Logger) async -> Outcome {
        let body: [UInt8]
        do {
            body = try WebhookEventDocument.body(of: event)
        } catch {
            return .failed(status: nil, reason: "cannot encode the event: \(error)")
        }
        let seconds = now.timeIntervalSince1970.rounded(.down)
        let timestamp = seconds.isFinite && abs(seconds) < 1e15 ? Int64(seconds) : 0
        var request = HTTPRequest.postJSON(url: target.url, body: body, timeout: timeout)
        request.headers.append(
            contentsOf: WebhookHeaders.signed(id: event.eventID, timestamp: timestamp, body: body, secrets: target.secrets))
        do {
            let response = try await http.execute(request, logger: logger)
            if response.isSuccess { return .acknowledged(status: response.status) }
            return .failed(status: response.status, reason: "HTTP \(response.status)" + Self.excerpt(response.body))
        } catch {
            return .failed(status: nil, reason: Self.short("\(error)", limit: 200))
        }
    }

    /// `: <the first 120 printable characters of the answer>`, or nothing for an empty one.
    static func excerpt(_ body: [UInt8]) -> String {
        let text = short(String(decoding: body.prefix(512), as: UTF8.self), limit: 120)
        return text.isEmpty ? "" : ": " + text
    }

    static func short(_ text: String, limit: Int) -> String {
        let printable = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
            .trimmingCharacters(in: .whitespaces)
        return printable.count > limit ? String(printable.prefix(limit)) + "…" : printable
    }
}
