import Foundation
import HTTPClient

/// A browser's part of the console for tests: it keeps the cookies the console sets (per name,
/// as a browser would for `/console`), reads the CSRF token from the last page, and sends forms.
/// Requests go through the production libcurl client, never following redirects.
final class ConsoleClient: @unchecked Sendable {
    let service: RunningService
    /// The cookies held, by name.
    private(set) var cookies: [String: String] = [:]
    /// The `Set-Cookie` lines of the last answer.
    private(set) var lastSetCookies: [String] = []
    /// The CSRF token of the last page that carried one.
    private(set) var csrfToken: String?
    /// Extra headers sent with every request (a proxy's `X-Forwarded-Proto`, say).
    var extraHeaders: [HTTPHeader] = []

    init(_ service: RunningService) {
        self.service = service
    }

    /// The answer to GET `path`.
    @discardableResult
    func get(_ path: String) async throws -> ConsolePage {
        try await send(.get, path, body: [])
    }

    /// The answer to a form POST of `fields` to `path` (the page's CSRF token added unless
    /// `csrf` says otherwise: nil sends none).
    @discardableResult
    func post(_ path: String, _ fields: [(String, String)] = [], csrf: String?? = .none) async throws -> ConsolePage {
        var all = fields
        let token: String? =
            switch csrf {
            case .none: csrfToken
            case .some(let given): given
            }
        if let token { all.append(("csrf_token", token)) }
        let body = all.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return try await send(.post, path, body: Array(body.utf8))
    }

    /// Signs in through the form and, as a browser does, opens the page it is sent to (which
    /// carries the session's CSRF token); returns the answer to the POST.
    @discardableResult
    func signIn(_ name: String, _ password: String) async throws -> ConsolePage {
        try await get("/console/sign-in")
        let answer = try await post("/console/sign-in", [("name", name), ("password", password)])
        let setCookies = lastSetCookies
        if answer.status == 303, let location = answer.location { try await get(location) }
        lastSetCookies = setCookies
        return answer
    }

    /// Sets a cookie as if the browser held it.
    func plant(_ name: String, _ value: String) {
        cookies[name] = value
    }

    private func send(_ method: HTTPMethod, _ path: String, body: [UInt8]) async throws -> ConsolePage {
        var headers = extraHeaders
        if !cookies.isEmpty {
            headers.append(HTTPHeader(name: "Cookie", value: cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")))
        }
        if method == .post { headers.append(HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded")) }
        let response = try await service.http.execute(
            HTTPRequest(method: method, url: service.baseURL + path, headers: headers, body: body, timeout: .seconds(20)))
        lastSetCookies = response.headers.filter { $0.name.lowercased() == "set-cookie" }.map(\.value)
        for line in lastSetCookies {
            guard let pair = line.split(separator: ";").first else { continue }
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).trimmingCharacters(in: .whitespaces)
            let value = parts.count > 1 ? String(parts[1]) : ""
            if value.isEmpty || line.lowercased().contains("max-age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
        let page = ConsolePage(status: response.status, headers: response.headers, html: String(decoding: response.body, as: UTF8.self))
        if let token = page.csrfToken { csrfToken = token }
        return page
    }

    private static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

/// One console answer.
struct ConsolePage: Sendable {
    let status: Int
    let headers: [HTTPHeader]
    let html: String

    var location: String? { headers.first(named: "Location") }

    /// The first CSRF token in the page's forms.
    var csrfToken: String? {
        guard let range = html.range(of: #"name="csrf_token" value=""#) else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// The rows of the table with id `id` (the text between `<tr` and `</tr>`, header row excluded).
    func rows(of id: String) -> [String] {
        guard let start = html.range(of: "<table id=\"\(id)\"") else { return [] }
        let table = html[start.lowerBound...]
        guard let end = table.range(of: "</table>") else { return [] }
        let body = table[..<end.lowerBound]
        guard let tbody = body.range(of: "<tbody>") else { return [] }
        return body[tbody.upperBound...].components(separatedBy: "<tr").dropFirst().map { "<tr" + $0 }
    }
}
