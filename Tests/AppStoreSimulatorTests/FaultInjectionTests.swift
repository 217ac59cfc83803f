import AppStoreSimulator
import Foundation
import Testing

@Suite("Fault injection")
struct FaultInjectionTests {
    @Test func failNextThenNormalAnswers() async throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers([CustomerSpec(name: "f", scenario: .trialRenews)])[0]
        simulator.failNext(2, with: .http503)
        simulator.failNext(1, with: .status21100)
        simulator.failNext(1, with: .status21005)
        try await withServer(simulator) { server in
            let body = try verifyBody(customer.receipt)
            #expect(try await SimHTTPClient.send(to: server.productionURL, body: body).status == 503)
            #expect(try await SimHTTPClient.send(to: server.productionURL, body: body).status == 503)
            let retryable = try await post(server.productionURL, body).json
            #expect(retryable["status"] as? Int == 21100 && retryable["is-retryable"] as? Bool == true)
            #expect(try await post(server.productionURL, body).json["status"] as? Int == 21005)
            #expect(try await post(server.productionURL, body).json["status"] as? Int == 0)
        }
        let stats = simulator.stats()
        #expect(stats.count(.http(503)) == 2 && stats.count(.status(21100)) == 1)
        #expect(stats.count(.status(21005)) == 1 && stats.count(.status(0)) == 1)
        #expect(stats.total == 5 && stats.faults == 4)
    }

    @Test func resetAndHangGiveNoAnswer() async throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers([CustomerSpec(name: "r", scenario: .trialRenews)])[0]
        simulator.setFaults(FaultSettings(hangSeconds: 0.2))
        simulator.failNext(1, with: .reset)
        simulator.failNext(1, with: .hang)
        try await withServer(simulator) { server in
            let body = try verifyBody(customer.receipt)
            await #expect(throws: (any Error).self) {
                _ = try await SimHTTPClient.send(to: server.productionURL, body: body, timeout: .seconds(5))
            }
            await #expect(throws: (any Error).self) {
                _ = try await SimHTTPClient.send(to: server.productionURL, body: body, timeout: .seconds(5))
            }
            #expect(try await post(server.productionURL, body).json["status"] as? Int == 0)
        }
        #expect(simulator.stats().count(.reset) == 1 && simulator.stats().count(.hang) == 1)
    }

    @Test func seededRatesAreReproducible() async throws {
        func outcomes(seed: UInt64) async throws -> [Int] {
            let simulator = makeSimulator()
            let customer = try simulator.addCustomers([CustomerSpec(name: "s", scenario: .trialRenews)])[0]
            simulator.setFaults(FaultSettings(rates: [.http500: 0.3, .status21005: 0.2], seed: seed))
            return try await withServer(simulator) { server in
                var seen: [Int] = []
                for _ in 0..<40 {
                    let answer = try await SimHTTPClient.send(to: server.productionURL, body: try verifyBody(customer.receipt))
                    seen.append(answer.status == 200 ? try jsonObject(answer.body)["status"] as! Int : answer.status)
                }
                let stats = simulator.stats()
                #expect(stats.total == 40)
                #expect(stats.count(.http(500)) == seen.filter { $0 == 500 }.count)
                #expect(stats.count(.status(21005)) == seen.filter { $0 == 21005 }.count)
                #expect(stats.count(.status(0)) == seen.filter { $0 == 0 }.count)
                return seen
            }
        }
        let first = try await outcomes(seed: 7)
        #expect(try await outcomes(seed: 7) == first)
        #expect(first.contains(500) && first.contains(21005) && first.contains(0))
    }

    @Test func perRequestHeaderAndControlEndpoints() async throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers([CustomerSpec(name: "h", scenario: .trialRenews)])[0]
        try await withServer(simulator) { server in
            let body = try verifyBody(customer.receipt)
            let forced = try await SimHTTPClient.send(to: server.productionURL, headers: [("X-Sim-Fault", "500")], body: body)
            #expect(forced.status == 500)

            let control = server.baseURL.appendingPathComponent("control")
            let queued = try await SimHTTPClient.send(
                to: control.appendingPathComponent("faults"),
                body: try jsonBytes(["fail_next": ["count": 2, "fault": "21005"], "latency_ms": 1])
            )
            #expect(queued.status == 200)
            #expect(simulator.faults.fixedLatencyMilliseconds == 1)
            for _ in 0..<3 { _ = try await post(server.productionURL, body) }

            let stats = try jsonObject(try await SimHTTPClient.send("GET", to: control.appendingPathComponent("stats")).body)
            let outcomes = try #require(stats["outcomes"] as? [String: Int])
            #expect(outcomes["http_500"] == 1 && outcomes["status_21005"] == 2 && outcomes["status_0"] == 1)
            #expect(stats["total"] as? Int == 4)

            let cleared = try await SimHTTPClient.send("DELETE", to: control.appendingPathComponent("faults"))
            #expect(cleared.status == 200 && simulator.faults == .none)
            let bad = try await SimHTTPClient.send(
                to: control.appendingPathComponent("faults"), body: Array("{\"rates\":{\"teapot\":1}}".utf8))
            #expect(bad.status == 400)

            let truth = try jsonObject(try await SimHTTPClient.send("GET", to: control.appendingPathComponent("truth")).body)
            #expect((truth["customers"] as? [Any])?.count == 1)
        }
    }
}
