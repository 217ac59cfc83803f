import Foundation
import HTTPClient
import Logging
import Postgres
import TestSupport
import Testing

/// Unauthenticated clients that trickle or flood cannot take the service from Apple: against
/// the real binary, 200 connections trickling a request a byte at a time and 50 sending
/// 4 MiB bodies without the shared secret, while a normal notification is answered at once.
@Suite("Hostile clients: slow and heavy unauthenticated connections", .serialized)
struct HostileClientsTests {
    /// A v1 body of about 4 MiB for the test app, with the wrong shared secret.
    static func heavyBody() -> [UInt8] {
        var body = NotificationBodies.v1(password: "not-the-secret")
        body["latest_receipt"] = String(repeating: "A", count: 4 * 1_024 * 1_024 - 4_096)
        return NotificationBodies.bytes(body)
    }

    @Test("trickling and 4 MiB unauthenticated bodies: a normal notification is still answered, nothing hostile is stored")
    func slowAndHeavyClients() async throws {
        let settings = ["HTTP_REQUEST_TIMEOUT_MS": "3000", "HTTP_IDLE_TIMEOUT_MS": "30000", "HTTP_MAX_CONNECTIONS_PER_ADDRESS": "64"]
        try await RealBinary.with(settings) { process, database, http in
            let port = try await process.start()

            // 200 trickling connections from one address: 64 are served (then cut at the
            // request deadline, although a byte arrives every 500 ms), the rest refused at once.
            let tricklers = try await RawConnection.open(200, port: port, from: "127.0.0.2")
            let request =
                "POST /notifications/appstore HTTP/1.1\r\nHost: subscriptiond\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
            let trickle = Task {
                for character in request + String(repeating: " ", count: 100) {
                    for connection in tricklers { connection.send(String(character)) }
                    try await Task.sleep(for: .milliseconds(500))
                }
            }
            // 50 heavy bodies from other addresses, without the secret.
            let heavy = Self.heavyBody()
            let floods = try await (0..<50).asyncMap { index in
                try RawConnection(port: port, from: "127.0.1.\(index + 1)", readTimeout: .seconds(60))
            }
            let flooding = Task {
                await withTaskGroup(of: String.self) { group in
                    for connection in floods {
                        group.addTask {
                            let head =
                                "POST /notifications/appstore HTTP/1.1\r\nHost: subscriptiond\r\nContent-Type: application/json\r\nContent-Length: \(heavy.count)\r\nConnection: close\r\n\r\n"
                            await connection.sendAll(Array(head.utf8) + heavy)
                            return await connection.readAll().text
                        }
                    }
                    return await group.reduce(into: [String]()) { $0.append($1) }
                }
            }
            try await Task.sleep(for: .milliseconds(300))

            // Apple's notification, while all of that goes on, is answered. How fast is printed,
            // not asserted (timings belong in benchmarks; this suite shares two cores with others).
            let started = ContinuousClock.now
            let normal = try await http.execute(
                .postJSON(
                    url: "http://127.0.0.1:\(port)/notifications/appstore",
                    body: NotificationBodies.renewal(originalTransactionID: "6100000000000001"),
                    timeout: .seconds(5)))
            print("hostile clients: a normal notification was answered in \(ContinuousClock.now - started) under attack")
            #expect(normal.status == 200)

            // Every trickling connection is closed by the server within the request deadline.
            let closed = await tricklers.asyncMap { await $0.readAll() }
            #expect(closed.allSatisfy { $0.closed }, "\(closed.filter { !$0.closed }.count) trickling connections still open")
            trickle.cancel()
            let answers = await flooding.value
            #expect(
                answers.allSatisfy { $0.hasPrefix("HTTP/1.1 401") || $0.hasPrefix("HTTP/1.1 503") || $0.isEmpty },
                "\(Set(answers.map { String($0.prefix(12)) }))")
            #expect(process.isRunning)
            let stored = try await database.query("SELECT count(*) AS n FROM notifications")[0].decode("n", as: Int.self)
            #expect(stored == 1, "only the normal notification may be stored")
        }
    }
}

extension Sequence {
    /// `map` with an async transform, one element at a time.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
