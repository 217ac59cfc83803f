import Logging
import ServiceLifecycle
import ServiceSupport

/// Tells systemd how the process is (`Type=notify`): `WATCHDOG=1` every half of
/// `WatchdogSec=`, each after `isHealthy` answered true, and `STOPPING=1` at graceful shutdown.
/// `READY=1` goes from `onServerRunning`, once the listener is bound. Does nothing outside a
/// `Type=notify` unit.
struct SystemdNotifyService: Service {
    let notifier: SystemdNotifier
    /// False holds the next `WATCHDOG=1` back: systemd restarts a process that misses
    /// `WatchdogSec=`.
    let isHealthy: @Sendable () async -> Bool
    let logger: Logger

    func run() async throws {
        if let interval = notifier.watchdogInterval {
            await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard !Task.isCancelled else { break }
                    if await isHealthy() {
                        notifier.notify("WATCHDOG=1")
                    } else {
                        logger.warning("watchdog: the health check did not answer; WATCHDOG=1 held back")
                    }
                }
            }
        } else {
            try? await gracefulShutdown()
        }
        notifier.notify("STOPPING=1")
    }
}
