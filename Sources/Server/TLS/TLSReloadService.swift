import Logging
import ServiceLifecycle
import ServiceSupport
import UnixSignals

/// Reads the TLS files again on every SIGHUP (a renewed certificate, as certbot and similar
/// tools deploy it) and says in the log whether the new pair took effect.
struct TLSReloadService: Service {
    let contexts: TLSContextStore
    let logger: Logger

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            do {
                try contexts.reload()
                logger.notice("SIGHUP: TLS certificate and key read again; new connections use them")
            } catch {
                logger.error(
                    "SIGHUP: TLS certificate or key did not load; still serving the previous pair", metadata: [LogKey.error: "\(error)"])
            }
        }
    }
}
