import Foundation
import Hummingbird
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SimulatorRoutes {
    /// Per-request fault: `X-Sim-Fault: 503` (any `Fault` raw value).
    static let faultHeader = "X-Sim-Fault"
    /// Per-request extra latency: `X-Sim-Latency-Ms: 250`.
    static let latencyHeader = "X-Sim-Latency-Ms"

    /// One verifyReceipt request: latency, then the fault decided for it, or Apple's answer.
    static func verify(
        _ request: Request,
        context: SimulatorRequestContext,
        endpoint: VerifyEndpoint,
        simulator: AppStoreSimulator
    ) async throws -> Response {
        let body = try await request.body.collect(upTo: maxBodyBytes)
        let decision = simulator.decideFault(
            forced: header(faultHeader, of: request).flatMap(Fault.init(rawValue:)),
            extraLatencyMilliseconds: header(latencyHeader, of: request).flatMap(Double.init) ?? 0
        )
        if decision.latencyMilliseconds > 0 {
            try await Task.sleep(for: .milliseconds(decision.latencyMilliseconds))
        }
        switch decision.fault {
        case .status21005?:
            return statusOnly(21005, endpoint: endpoint, simulator: simulator)
        case .status21100?:
            return statusOnly(21100, endpoint: endpoint, simulator: simulator)
        case .http500?:
            simulator.record(.http(500), endpoint: endpoint)
            return json(Array("{\"error\":\"internal\"}".utf8), status: .internalServerError)
        case .http503?:
            simulator.record(.http(503), endpoint: endpoint)
            return json(Array("{\"error\":\"unavailable\"}".utf8), status: .serviceUnavailable)
        case .http429?:
            simulator.record(.http(429), endpoint: endpoint)
            return json(Array("{\"error\":\"rate_limited\"}".utf8), status: .tooManyRequests)
        case .hang?:
            simulator.record(.hang, endpoint: endpoint)
            try? await Task.sleep(for: .seconds(decision.hangSeconds))
            return await reset(context.channel)
        case .reset?:
            simulator.record(.reset, endpoint: endpoint)
            return await reset(context.channel)
        case nil:
            let answer = simulator.verifyReceipt(body: Array(buffer: body), endpoint: endpoint)
            simulator.record(.status(answer.status), endpoint: endpoint)
            return json(answer.body)
        }
    }

    /// Closes the connection with SO_LINGER 0, so the client sees a TCP reset, not an answer.
    static func reset(_ channel: any Channel) async -> Response {
        if let provider = channel as? any SocketOptionProvider {
            try? await provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        }
        try? await channel.close()
        return Response(status: .ok)
    }
}
