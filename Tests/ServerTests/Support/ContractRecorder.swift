import Foundation
import HTTPClient
import Synchronization

/// Records every exchange the tests make through `RunningService` when
/// `SUBSCRIPTIOND_CONTRACT_RECORD` names a file: one JSON line each (method, path, status,
/// content type, body), and every webhook delivery the tests' receivers get. `make test` then
/// holds every recorded answer, errors included, and every delivery to docs/openapi.yaml
/// (Tests/contract/check-openapi.py).
enum ContractRecorder {
    private static let file: FileHandle? = {
        guard let path = ProcessInfo.processInfo.environment["SUBSCRIPTIOND_CONTRACT_RECORD"], !path.isEmpty else { return nil }
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let handle = FileHandle(forWritingAtPath: path)
        _ = try? handle?.seekToEnd()
        return handle
    }()
    private static let lock = Mutex(())

    /// One webhook delivery as a receiver got it: `{"webhook": "subscriptionEvent", "headers",
    /// "body"}`, held to the document's `webhooks` section.
    static func recordWebhook(headers: [(name: String, value: String)], body: [UInt8]) {
        guard let file else { return }
        let line: [String: Any] = [
            "webhook": "subscriptionEvent", "headers": Dictionary(headers.map { ($0.name.lowercased(), $0.value) }) { first, _ in first },
            "body": String(decoding: body, as: UTF8.self),
        ]
        guard var data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]) else { return }
        data.append(UInt8(ascii: "\n"))
        lock.withLock { _ in file.write(data) }
    }

    static func record(_ request: HTTPClient.HTTPRequest, _ response: HTTPClient.HTTPResponse) {
        guard let file, let url = URLComponents(string: request.url) else { return }
        let contentType = response.headers.first { $0.name.lowercased() == "content-type" }?.value
        let line: [String: Any] = [
            "method": request.method.rawValue, "path": url.percentEncodedPath, "status": response.status,
            "content_type": contentType ?? "", "body": String(decoding: response.body, as: UTF8.self),
        ]
        guard var data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]) else { return }
        data.append(UInt8(ascii: "\n"))
        lock.withLock { _ in file.write(data) }
    }
}
