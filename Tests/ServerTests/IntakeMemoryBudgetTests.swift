import Foundation
import HTTPClient
import Settings
import TestSupport
import Testing

@testable import Server

/// Issue 37, item 5: the bytes of unauthenticated bodies held at once are bounded by
/// `INTAKE_MAX_INFLIGHT_BYTES`; past it intake answers 503 with `Retry-After` before reading.
@Suite("Intake memory budget: unauthenticated bodies in flight are bounded", .serialized)
struct IntakeMemoryBudgetTests {
    @Test("the budget: all or nothing, never past its capacity under contention, everything given back")
    func budget() async {
        let budget = InflightBodyBudget(capacity: 100)
        #expect(budget.reserve(60))
        #expect(!budget.reserve(41))
        #expect(budget.reserved == 60)
        #expect(budget.reserve(40))
        #expect(!budget.reserve(1))
        budget.release(100)
        #expect(budget.reserved == 0)

        var reservation = InflightBodyBudget.Reservation(budget)
        #expect(throws: APIError.overloaded) { try reservation.grow(to: 101) }
        #expect(reservation.bytes == 0 && budget.reserved == 0)
        try? reservation.grow(to: 30)
        try? reservation.grow(to: 20)
        #expect(reservation.bytes == 30 && budget.reserved == 30)
        reservation.release()
        #expect(budget.reserved == 0)

        let shared = InflightBodyBudget(capacity: 1_000)
        let peak = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var highest = 0
                    for size in 1...2_000 where shared.reserve(size % 300) {
                        highest = max(highest, shared.reserved)
                        shared.release(size % 300)
                    }
                    return highest
                }
            }
            return await group.reduce(0) { max($0, $1) }
        }
        #expect(peak <= 1_000)
        #expect(shared.reserved == 0)
    }

    @Test("INTAKE_MAX_INFLIGHT_BYTES: default 64 MiB; below MAX_BODY_BYTES stops startup naming both")
    func setting() throws {
        let base = ["APPSTORE_BUNDLE_ID": RunningService.bundleID, "APPSTORE_SHARED_SECRET": RunningService.sharedSecret]
        #expect(try ServiceConfiguration.load(environment: base).intakeMaxInflightBytes == 67_108_864)
        #expect {
            try ServiceConfiguration.load(environment: base.merging(["INTAKE_MAX_INFLIGHT_BYTES": "1048576"]) { _, new in new })
        } throws: { "\($0)".contains("INTAKE_MAX_INFLIGHT_BYTES is 1048576, less than MAX_BODY_BYTES (4194304)") }
    }

    /// The resident set of process `pid` in bytes (`VmRSS` of /proc/PID/status).
    static func residentBytes(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1_024
    }

    @Test(
        "64 connections each declaring 4 MiB and sending 1.5 MiB slowly, then holding: RSS grows less than the 64 MiB budget, the 48 past it get 503 overloaded with Retry-After, and the budget comes back"
    )
    func heldUploads() async throws {
        let budget = 64 * 1_024 * 1_024
        let settings = [
            "INTAKE_MAX_INFLIGHT_BYTES": "\(budget)", "HTTP_REQUEST_TIMEOUT_MS": "60000", "HTTP_MAX_CONNECTIONS_PER_ADDRESS": "0",
            "WORKER_CONCURRENCY": "0",
        ]
        try await RealBinary.with(settings) { process, _, http in
            let port = try await process.start()
            let pid = try #require(process.processIdentifier)
            // Warm up the intake path (allocator arenas, the large-body thread) before the baseline.
            let warm = try await http.execute(
                .postJSON(
                    url: "http://127.0.0.1:\(port)/notifications/appstore", body: HostileClientsTests.heavyBody(), timeout: .seconds(20)))
            #expect(warm.status == 401)
            try await Task.sleep(for: .milliseconds(500))
            let before = try #require(Self.residentBytes(pid))

            let declared = 4 * 1_024 * 1_024
            let piece = [UInt8](repeating: UInt8(ascii: "A"), count: 256 * 1_024)
            let head =
                "POST /notifications/appstore HTTP/1.1\r\nHost: subscriptiond\r\nContent-Type: application/json\r\nContent-Length: \(declared)\r\n\r\n"
            let connections = try await RawConnection.open(64, port: port)
            await withTaskGroup(of: Void.self) { group in
                for connection in connections {
                    group.addTask {
                        await connection.sendAll(Array(#"\#(head){"latest_receipt":""#.utf8))
                        // 1.5 MiB of the 4 declared, 256 KiB every 50 ms; then the connection is held.
                        // (The budget bounds the bodies being read, 16 × 1.5 MiB here; the 48 refused
                        // connections, drained until they close, cost about 20 MiB more at the peak.)
                        for _ in 0..<6 {
                            await connection.sendAll(piece)
                            try? await Task.sleep(for: .milliseconds(50))
                        }
                    }
                }
            }
            var during = 0
            for _ in 0..<20 {
                during = max(during, Self.residentBytes(pid) ?? 0)
                try await Task.sleep(for: .milliseconds(100))
            }
            let growth = during - before
            print(
                "intake memory budget: RSS \(before / 1_048_576) MiB before, \(during / 1_048_576) MiB during 64 held 4 MiB uploads (+\(growth / 1_048_576) MiB)"
            )
            #expect(growth < budget, "RSS grew by \(growth) bytes, more than the \(budget)-byte budget")

            // The answers so far: those past the budget were told at once; the held ones have none.
            let answers = await withTaskGroup(of: (text: String, closed: Bool).self) { group in
                for connection in connections { group.addTask { await connection.readAll() } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let overloaded = answers.filter { $0.text.hasPrefix("HTTP/1.1 503") }
            #expect(overloaded.count == 48, "\(Set(answers.map { String($0.text.prefix(12)) }))")
            #expect(
                overloaded.allSatisfy { $0.text.lowercased().contains("retry-after: 1\r\n") && $0.text.contains(#""error":"overloaded""#) })
            #expect(answers.filter { $0.text.isEmpty && !$0.closed }.count == 16, "the 16 within the budget are still being read")
            #expect(process.isRunning)

            // The held connections go away: their reservations come back, and a notification is read.
            for connection in connections { connection.shutdown() }
            let deadline = ContinuousClock.now + .seconds(10)
            var status = 0
            repeat {
                let answer = try await http.execute(
                    .postJSON(
                        url: "http://127.0.0.1:\(port)/notifications/appstore", body: HostileClientsTests.heavyBody(), timeout: .seconds(20)
                    ))
                status = answer.status
                if status != 401 { try await Task.sleep(for: .milliseconds(200)) }
            } while status != 401 && ContinuousClock.now < deadline
            #expect(status == 401, "a 4 MiB body is read (and refused for its secret) once the held ones are gone")
        }
    }
}
