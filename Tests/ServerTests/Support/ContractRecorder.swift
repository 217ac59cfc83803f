import Foundation
import HTTPClient
import Synchronization

/// Records every exchange the tests make through `RunningService` when
/// `SUBSCRIPTIOND_CONTRACT_RECORD` names a file: one JSON line each (method, path, status,
/// content type, body). `make test` then holds every recorded answer, errors included, to
/// docs/openapi.yaml (Tests/contract/check-openapi.py).
enum ContractRecorder {
    private static let file: FileHandle? = {
        guard let path = ProcessInfo.processInfo.environment["SUBSCRIPTIOND_CONTRACT_RECORD"], !path.isEmpty else { return nil }
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let handle = FileHandle(forWritingAtPath: path)
        _ = try? handle?.seekToEnd()
        return handle
    }()
    private static let lock = Mutex(())

    static func record(_ request: HTTPClient.HTTPRequest, _ response: HTTPClient.HTTPResponse) {
        guard let file, let url = URLComponents(string: request.url) else { return }
        let contentType = response.headers.first { $0.name.lowercased() == "content-type" }?.value
        let line: [String: Any] = [
            "method": request.method.rawValue, "path": url.path, "status": response.status,
            "content_type": contentType ?? "", "body": String(decoding: response.body, as: UTF8.self),
        ]
        guard var data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]) else { return }
        data.append(UInt8(ascii: "\n"))
        lock.withLock { _ in file.write(data) }
    }
}
