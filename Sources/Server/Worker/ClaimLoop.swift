import Logging
import ServiceLifecycle
import ServiceSupport
import UseCases

/// The dispatcher the notification worker and webhook delivery share: wait for a free slot
/// (a moment longer when nearly full, to claim a batch), claim as much due work as there
/// are free slots, run each claim in a task of its own, and repeat until graceful shutdown
/// (in-flight work finishes). A claim that fails (database trouble) is retried with a
/// growing pause, logged on the first failure and every 20th.
struct ClaimLoop<Claim: Sendable>: Sendable {
    /// Claims in flight at most.
    let concurrency: Int
    /// How long to wait for work when nothing signals.
    let pollInterval: Duration
    /// Wakes the loop early (new work stored, a slot freed, shutdown).
    let signal: WorkerSignal
    /// What is claimed, for the log line ("notifications", "webhook events").
    let what: String
    let logger: Logger

    /// How long a claim waits for more attempts to end when fewer than 1/16 of the slots are free.
    static var batchLinger: Duration { .milliseconds(10) }

    /// How long a claim the yield refused waits before asking again.
    static var yieldRecheck: Duration { .milliseconds(10) }

    /// Runs until graceful shutdown or cancellation. `beforeClaiming` runs before every
    /// claim; `yield` (the notification worker's, see `WorkerYield`) may hold claims back
    /// while intake is slow; `claim` takes up to N due items; `handle` processes one.
    func run(
        beforeClaiming: @escaping @Sendable () async -> Void = {},
        yield: WorkerYield? = nil,
        isolated: IsolatedClaims<Claim>? = nil,
        claim: @escaping @Sendable (_ limit: Int) async throws -> [Claim],
        handle: @escaping @Sendable (Claim) async -> Void
    ) async {
        let slots = WorkerSlots(count: concurrency)
        let batch = max(1, concurrency / 16)
        let (signal, pollInterval, logger, what) = (self.signal, self.pollInterval, self.logger, self.what)
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                var failures = 0
                // Checked first: a restart after a crash begins with the entries it left behind.
                var isolatedWaiting = isolated != nil
                var lastIsolatedCheck = ContinuousClock.now
                while !Task.isShuttingDownGracefully && !Task.isCancelled {
                    await beforeClaiming()
                    if let isolated {
                        if !isolatedWaiting, ContinuousClock.now - lastIsolatedCheck >= isolated.checkInterval {
                            lastIsolatedCheck = ContinuousClock.now
                            isolatedWaiting = (try? await isolated.isDue()) ?? false
                        }
                        if isolatedWaiting {
                            // Let the attempts in flight end, then run one item with nothing beside it.
                            await slots.waitUntilIdle()
                            do {
                                if let item = try await isolated.claimOne() {
                                    await handle(item)
                                    continue
                                }
                            } catch {
                                logger.warning("cannot claim \(what) to run alone; will look again", metadata: [LogKey.error: "\(error)"])
                            }
                            isolatedWaiting = false
                            lastIsolatedCheck = ContinuousClock.now
                        }
                    }
                    await slots.waitForFree()
                    if await slots.free < batch {
                        // Nearly full: let a few more attempts end, so one claim query
                        // serves many slots instead of one each (the claim scans the inbox).
                        try? await Task.sleep(for: Self.batchLinger)
                    }
                    var limit = await slots.free
                    if let yield {
                        limit = min(limit, await yield.allowance(inFlight: concurrency - limit))
                        if limit == 0 {
                            try? await Task.sleep(for: Self.yieldRecheck)
                            continue
                        }
                    }
                    let claimed: [Claim]
                    do {
                        claimed = try await claim(limit)
                        failures = 0
                    } catch {
                        failures += 1
                        if failures == 1 || failures % 20 == 0 {
                            logger.warning("cannot claim \(what); will keep trying", metadata: [LogKey.error: "\(error)"])
                        }
                        await signal.wait(upTo: .milliseconds(min(5_000, 250 * failures)))
                        continue
                    }
                    if claimed.isEmpty {
                        await signal.wait(upTo: pollInterval)
                        continue
                    }
                    await slots.take(claimed.count)
                    for item in claimed {
                        group.addTask {
                            await handle(item)
                            await slots.release()
                        }
                    }
                }
            }
        } onGracefulShutdown: {
            Task { await signal.signal() }
        }
    }
}

/// Work the loop runs alone, with nothing else in flight: a notification whose last attempt
/// ended with the process, so that a second death is its own and not a neighbour's.
struct IsolatedClaims<Claim: Sendable>: Sendable {
    /// Whether such work is due; asked at most once per `checkInterval` while other work runs.
    let isDue: @Sendable () async throws -> Bool
    /// Claims one item to run alone, or nil when none is due.
    let claimOne: @Sendable () async throws -> Claim?
    /// How often to ask `isDue` while busy.
    let checkInterval: Duration
}
