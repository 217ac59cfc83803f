import Foundation
import Logging
import ServiceLifecycle
import ServiceSupport
import UseCases

/// Keeps this process's keys current: reloads them every `interval` (so a key made or
/// revoked by any process is seen here within about that), and writes when each key was last
/// used every `useInterval` and once more at shutdown.
struct APIKeyRefreshService: Service {
    let authentication: APIKeyAuthentication
    var interval: Duration = .seconds(1)
    var useInterval: Duration = .seconds(60)
    let logger: Logger

    func run() async throws {
        let clock = ContinuousClock()
        var lastUseWrite = clock.now
        var failing = false
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await authentication.refresh()
                if failing { logger.notice("the API keys are read again") }
                failing = false
            } catch {
                if !failing {
                    logger.warning(
                        "the API keys could not be reloaded; the keys read last stay in use", metadata: [LogKey.error: "\(error)"])
                }
                failing = true
            }
            if clock.now - lastUseWrite >= useInterval {
                lastUseWrite = clock.now
                await flushUses()
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
        await flushUses()
    }

    private func flushUses() async {
        do {
            try await authentication.flushUses()
        } catch {
            logger.info("the keys' last use could not be written; kept for the next try", metadata: [LogKey.error: "\(error)"])
        }
    }
}
