import Foundation
import Hummingbird

extension SimulatorRoutes {
    /// Apple's Retention Messaging API under both base paths (the performance test under the
    /// sandbox's only, as Apple runs it there), with the same token, rate limit and faults as
    /// the App Store Server API.
    static func addRetentionRoutes(to router: Router<SimulatorRequestContext>, simulator: AppStoreSimulator) {
        for environment in SimEnvironment.allCases {
            let base = "\(apiBasePath(environment))/inApps/v1/messaging"
            router.get("\(base)/message/list") { request, context in
                try await api(request, context, environment, simulator) { bundleID, now, _ in
                    simulator.apiRetentionMessageList(environment: environment, bundleID: bundleID, now: now)
                }
            }
            router.put("\(base)/message/:messageIdentifier") { request, context in
                try await api(request, context, environment, simulator) { bundleID, now, body in
                    try simulator.apiUploadRetentionMessage(
                        try parameter("messageIdentifier", context), body: body, environment: environment, bundleID: bundleID, now: now)
                    return .object([])
                }
            }
            router.delete("\(base)/message/:messageIdentifier") { request, context in
                try await api(request, context, environment, simulator) { bundleID, _, _ in
                    try simulator.apiDeleteRetentionMessage(
                        try parameter("messageIdentifier", context), environment: environment, bundleID: bundleID)
                    return .object([])
                }
            }
            router.get("\(base)/image/list") { request, context in
                try await api(request, context, environment, simulator) { bundleID, now, _ in
                    simulator.apiRetentionImageList(environment: environment, bundleID: bundleID, now: now)
                }
            }
            router.put("\(base)/image/:imageIdentifier") { request, context in
                try await api(request, context, environment, simulator) { bundleID, now, body in
                    try simulator.apiUploadRetentionImage(
                        try parameter("imageIdentifier", context), size: request.uri.queryParameters.get("imageSize"), body: body,
                        environment: environment, bundleID: bundleID, now: now)
                    return .object([])
                }
            }
            router.delete("\(base)/image/:imageIdentifier") { request, context in
                try await api(request, context, environment, simulator) { bundleID, _, _ in
                    try simulator.apiDeleteRetentionImage(
                        try parameter("imageIdentifier", context), environment: environment, bundleID: bundleID)
                    return .object([])
                }
            }
            addDefaultMessageRoutes(to: router, base: base, environment: environment, simulator: simulator)
            addRealtimeRoutes(to: router, base: base, environment: environment, simulator: simulator)
        }
    }

    /// Configure, Get and Delete Default Message.
    private static func addDefaultMessageRoutes(
        to router: Router<SimulatorRequestContext>, base: String, environment: SimEnvironment, simulator: AppStoreSimulator
    ) {
        router.put("\(base)/default/:productId/:locale") { request, context in
            try await api(request, context, environment, simulator) { bundleID, now, body in
                try simulator.apiConfigureDefaultRetentionMessage(
                    productID: try parameter("productId", context), locale: try parameter("locale", context), body: body,
                    environment: environment, bundleID: bundleID, now: now)
                return .object([])
            }
        }
        router.get("\(base)/default/:productId/:locale") { request, context in
            try await api(request, context, environment, simulator) { bundleID, _, _ in
                try simulator.apiDefaultRetentionMessage(
                    productID: try parameter("productId", context), locale: try parameter("locale", context), environment: environment,
                    bundleID: bundleID)
            }
        }
        router.delete("\(base)/default/:productId/:locale") { request, context in
            try await api(request, context, environment, simulator) { bundleID, _, _ in
                try simulator.apiDeleteDefaultRetentionMessage(
                    productID: try parameter("productId", context), locale: try parameter("locale", context), environment: environment,
                    bundleID: bundleID)
                return .object([])
            }
        }
    }

    /// Configure, Get and Delete Realtime URL; the performance test (sandbox only).
    private static func addRealtimeRoutes(
        to router: Router<SimulatorRequestContext>, base: String, environment: SimEnvironment, simulator: AppStoreSimulator
    ) {
        router.put("\(base)/realtime/url") { request, context in
            try await api(request, context, environment, simulator) { bundleID, _, body in
                try simulator.apiConfigureRealtimeURL(body: body, environment: environment, bundleID: bundleID)
                return .object([])
            }
        }
        router.get("\(base)/realtime/url") { request, context in
            try await api(request, context, environment, simulator) { bundleID, _, _ in
                try simulator.apiRealtimeURL(environment: environment, bundleID: bundleID)
            }
        }
        router.delete("\(base)/realtime/url") { request, context in
            try await api(request, context, environment, simulator) { bundleID, _, _ in
                try simulator.apiDeleteRealtimeURL(environment: environment, bundleID: bundleID)
                return .object([])
            }
        }
        guard environment == .sandbox else { return }
        router.post("\(base)/performanceTest") { request, context in
            try await api(request, context, environment, simulator) { bundleID, now, body in
                let started = try simulator.apiStartPerformanceTest(body: body, bundleID: bundleID, now: now)
                Task { await simulator.runPerformanceTest(started.requestID, started.run) }
                return started.answer
            }
        }
        router.get("\(base)/performanceTest/result/:requestId") { request, context in
            try await api(request, context, environment, simulator) { bundleID, _, _ in
                try simulator.apiPerformanceTestResult(try parameter("requestId", context), bundleID: bundleID)
            }
        }
    }
}
