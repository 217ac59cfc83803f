import Foundation
import Hummingbird
import NIOCore

extension SimulatorRoutes {
    /// Base paths of the App Store Server API: `/api` like `api.storekit.apple.com`,
    /// `/api-sandbox` like `api.storekit-sandbox.apple.com`.
    static func apiBasePath(_ environment: SimEnvironment) -> String {
        environment == .production ? "api" : "api-sandbox"
    }

    /// The App Store Server API endpoints subscriptiond uses, under both base paths.
    static func addAPIRoutes(to router: Router<SimulatorRequestContext>, simulator: AppStoreSimulator) {
        for environment in SimEnvironment.allCases {
            let base = apiBasePath(environment)
            router.get("\(base)/inApps/v1/subscriptions/:transactionId") { request, context in
                try await api(request, context, environment, simulator) { bundleID, now, _ in
                    try simulator.apiSubscriptionStatuses(
                        try parameter("transactionId", context), environment: environment, bundleID: bundleID, now: now)
                }
            }
            router.get("\(base)/inApps/v2/history/:transactionId") { request, context in
                try await api(request, context, environment, simulator) { bundleID, now, _ in
                    try simulator.apiTransactionHistory(
                        try parameter("transactionId", context), revision: request.uri.queryParameters.get("revision"),
                        environment: environment, bundleID: bundleID, now: now
                    )
                }
            }
            router.get("\(base)/inApps/v2/refund/lookup/:transactionId") { request, context in
                try await api(request, context, environment, simulator, customerLookup: true) { bundleID, now, _ in
                    try simulator.apiRefundHistory(
                        try parameter("transactionId", context), revision: request.uri.queryParameters.get("revision"),
                        environment: environment, bundleID: bundleID, now: now
                    )
                }
            }
            router.put("\(base)/inApps/v2/transactions/consumption/:transactionId") { request, context in
                try await api(request, context, environment, simulator, accepted: true) { bundleID, _, body in
                    try simulator.apiConsumption(
                        try parameter("transactionId", context), body: body, environment: environment, bundleID: bundleID)
                    return .object([])
                }
            }
            // Apple's path names the original transaction id; the parameter shares the name of
            // Get Transaction Info's, which the router's tree requires of one position.
            router.put("\(base)/inApps/v1/transactions/:transactionId/appAccountToken") { request, context in
                try await api(request, context, environment, simulator) { bundleID, _, body in
                    try simulator.apiSetAppAccountToken(
                        try parameter("transactionId", context), body: body, environment: environment, bundleID: bundleID)
                    return .object([])
                }
            }
            router.post("\(base)/inApps/v1/transactions/:transactionId/finish") { request, context in
                try await api(request, context, environment, simulator) { bundleID, now, _ in
                    try simulator.apiFinishTransaction(
                        try parameter("transactionId", context), environment: environment, bundleID: bundleID, now: now)
                    return .object([])
                }
            }
            router.put("\(base)/inApps/v1/subscriptions/extend/:originalTransactionId") { request, context in
                try await api(request, context, environment, simulator) { bundleID, now, body in
                    let extended = try simulator.apiExtend(
                        try parameter("originalTransactionId", context), body: body, environment: environment, bundleID: bundleID, now: now)
                    send(extended.notifications, simulator)
                    return extended.answer
                }
            }
            router.post("\(base)/inApps/v1/subscriptions/extend/mass") { request, context in
                try await api(request, context, environment, simulator) { bundleID, now, body in
                    let requested = try simulator.apiMassExtend(body: body, environment: environment, bundleID: bundleID, now: now)
                    send(requested.notifications, simulator)
                    if let summary = requested.summary {
                        send([summary], simulator, after: max(0, requested.completeAt.timeIntervalSince(now)))
                    }
                    return requested.answer
                }
            }
            router.get("\(base)/inApps/v1/subscriptions/extend/mass/:productId/:requestIdentifier") { request, context in
                try await api(request, context, environment, simulator) { bundleID, now, _ in
                    try simulator.apiMassExtensionStatus(
                        productID: try parameter("productId", context), requestIdentifier: try parameter("requestIdentifier", context),
                        environment: environment, bundleID: bundleID, now: now)
                }
            }
            // Apple offers no order lookup in the sandbox: only the production base path has it.
            if environment == .production {
                router.get("\(base)/inApps/v1/lookup/:orderId") { request, context in
                    try await api(request, context, environment, simulator, customerLookup: true) { bundleID, now, _ in
                        try simulator.apiOrderLookup(try parameter("orderId", context), bundleID: bundleID, now: now)
                    }
                }
            }
            router.get("\(base)/inApps/v1/transactions/:transactionId") { request, context in
                try await api(request, context, environment, simulator) { bundleID, now, _ in
                    try simulator.apiTransactionInfo(
                        try parameter("transactionId", context), environment: environment, bundleID: bundleID, now: now)
                }
            }
            router.get("\(base)/inApps/v1/transactions/appTransactions/:transactionId") { request, context in
                try await api(request, context, environment, simulator) { bundleID, now, _ in
                    try simulator.apiAppTransactionInfo(
                        try parameter("transactionId", context), environment: environment, bundleID: bundleID, now: now)
                }
            }
            router.post("\(base)/inApps/v1/notifications/history") { request, context in
                try await api(request, context, environment, simulator) { bundleID, now, body in
                    try simulator.apiNotificationHistory(
                        body: body, paginationToken: request.uri.queryParameters.get("paginationToken"),
                        environment: environment, bundleID: bundleID, now: now
                    )
                }
            }
            router.post("\(base)/inApps/v1/notifications/test") { request, context in
                try await api(request, context, environment, simulator) { bundleID, now, _ in
                    let requested = try simulator.apiRequestTestNotification(environment: environment, bundleID: bundleID, now: now)
                    if let target = requested.target {
                        send([requested.notification], simulator, to: target)
                    }
                    return .object([("testNotificationToken", .string(requested.token))])
                }
            }
            router.get("\(base)/inApps/v1/notifications/test/:token") { request, context in
                try await api(request, context, environment, simulator) { bundleID, _, _ in
                    try simulator.apiTestNotificationStatus(try parameter("token", context), environment: environment, bundleID: bundleID)
                }
            }
        }
    }

    /// Sends `notifications` in order, `after` seconds from now, to `target` (default: the
    /// simulator's notification target; none set leaves them unsent), once each.
    private static func send(
        _ notifications: [SimNotification], _ simulator: AppStoreSimulator, to target: URL? = nil, after: TimeInterval = 0
    ) {
        guard !notifications.isEmpty, let target = target ?? simulator.notificationTarget else { return }
        let sender = NotificationSender(target: target, retry: .none, timeout: .seconds(10), simulator: simulator)
        Task {
            if after > 0 { try? await Task.sleep(for: .milliseconds(Int64((after * 1_000).rounded(.up)))) }
            for notification in notifications { _ = await sender.deliver(notification) }
        }
    }

    /// One API request: the fault decided for it, then the bearer token and the rate limit,
    /// then `handler` with the token's bundle id, the time and the body.
    static func api(
        _ request: Request,
        _ context: SimulatorRequestContext,
        _ environment: SimEnvironment,
        _ simulator: AppStoreSimulator,
        customerLookup: Bool = false,
        accepted: Bool = false,
        handler: (String, Date, [UInt8]) throws -> JSONValue
    ) async throws -> Response {
        let body = Array(buffer: try await request.body.collect(upTo: maxBodyBytes))
        let decision = simulator.decideFault(
            forced: header(faultHeader, of: request).flatMap(Fault.init(rawValue:)),
            extraLatencyMilliseconds: header(latencyHeader, of: request).flatMap(Double.init) ?? 0
        )
        if decision.latencyMilliseconds > 0 {
            try await Task.sleep(for: .milliseconds(decision.latencyMilliseconds))
        }
        let now = Date()
        switch decision.fault {
        case .hang?:
            simulator.recordAPI(.hang)
            try? await Task.sleep(for: .seconds(decision.hangSeconds))
            return await reset(context.channel)
        case .reset?:
            simulator.recordAPI(.reset)
            return await reset(context.channel)
        case .http429?:
            return apiError(.rateLimited(retryAfter: Int64((now.timeIntervalSince1970 * 1_000).rounded(.down)) + 1_000), simulator)
        case .http503?:
            return apiError(.internalError(status: 503), simulator)
        case .http500?, .status21005?, .status21100?:
            return apiError(.internalError(status: 500), simulator)
        case nil:
            break
        }
        let bundleID: String
        switch simulator.apiAuthorize(
            authorization: header("Authorization", of: request), environment: environment, customerLookup: customerLookup, now: now)
        {
        case .success(let bid): bundleID = bid
        case .failure(let error): return apiError(error, simulator)
        }
        do {
            let answer = try handler(bundleID, now, body)
            // Send Consumption Information answers 202 with no body.
            simulator.recordAPI(.http(accepted ? 202 : 200))
            return accepted ? Response(status: .accepted) : json(answer.bytes())
        } catch let error as APIError {
            return apiError(error, simulator)
        } catch {
            return apiError(.internalError(status: 500), simulator)
        }
    }

    /// Apple's error answer, with `Retry-After` for 429.
    private static func apiError(_ error: APIError, _ simulator: AppStoreSimulator) -> Response {
        simulator.recordAPI(.http(error.status))
        var headers: HTTPFields = [.contentType: "application/json"]
        if let retry = error.retryAfterMilliseconds {
            headers[.retryAfter] = String(retry)
        }
        return Response(
            status: HTTPResponse.Status(code: error.status),
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: error.body.bytes()))
        )
    }

    /// A path parameter (Hummingbird only routes here when it is present).
    static func parameter(_ name: String, _ context: SimulatorRequestContext) throws(APIError) -> String {
        guard let value = context.parameters.get(name), !value.isEmpty else { throw .transactionNotFound }
        return value.removingPercentEncoding ?? value
    }
}
