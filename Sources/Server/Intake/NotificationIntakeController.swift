import Hummingbird
import Intake
import Logging
import ServiceSupport
import Store

/// `POST /notifications/appstore`: authenticate, store durably, then answer.
///
/// Does no upstream call, so it stays fast while Apple's verify endpoint is slow or down.
/// Entries are stored through the batcher (group commit): the answer comes after the
/// commit of the batch that stored it; the batcher wakes the worker once per batch.
struct NotificationIntakeController<Context: RequestContext> {
    let parser: NotificationIntakeParser
    let signed: SignedNotificationIntake
    let batcher: IntakeBatcher
    let maxBodyBytes: Int
    let largeBodies: LargeBodyLane
    /// Bytes of bodies being received at once, across connections (`INTAKE_MAX_INFLIGHT_BYTES`).
    let bodyBudget: InflightBodyBudget
    /// Where each answer's time goes, for the worker's yield (nil: no worker here to yield).
    let latency: IntakeLatencyWindow?

    func addRoutes(to router: Router<Context>) {
        router.post("/notifications/appstore") { request, context in
            let start = ContinuousClock.now
            defer { latency?.record(ContinuousClock.now - start) }
            return try await accept(request, context: context)
        }
    }

    func accept(_ request: Request, context: Context) async throws -> IntakeAnswer {
        var version = "unknown"
        let result: InboxInsertResult
        let entry: InboxEntry
        do {
            // The body's bytes count against the budget until it is stored (or refused).
            let stored = try await RequestBody.json(request, maxBytes: maxBodyBytes, within: bodyBudget) { body in
                let entry: InboxEntry
                do {
                    let parser = self.parser
                    let parsed = try await largeBodies.read(size: body.count) { () throws(APIError) -> IntakeBody in
                        do throws(IntakeRefusal) {
                            return try parser.parse(body)
                        } catch {
                            throw APIError(error)
                        }
                    }
                    switch parsed {
                    case .v1(let v1):
                        version = "v1"
                        entry = v1
                    case .signed(let jws):
                        version = "v2"
                        entry = try await signed.entry(signedPayload: jws, logger: context.logger)
                    }
                } catch let error as APIError {
                    context.logger.info("notification rejected", metadata: [LogKey.error: "\(error.message)"])
                    throw error
                }
                return (entry: entry, result: try await batcher.insert(entry))
            }
            entry = stored.entry
            result = stored.result
        } catch {
            // Mapped here, as the middleware would, so the metric counts the answer Apple gets.
            let answer = ErrorMappingMiddleware<Context>.answer(for: error, logger: context.logger, requestID: context.id)
            PipelineMetrics.received(version: version, outcome: answer.code)
            throw answer
        }
        switch result {
        case .accepted(let id):
            PipelineMetrics.received(version: version, outcome: "accepted")
            context.logger.info(
                "notification accepted",
                metadata: [
                    LogKey.notificationID: "\(id)", LogKey.notificationType: "\(entry.notificationType ?? "-")",
                    LogKey.bundleID: "\(entry.bundleID)",
                ])
            return IntakeAnswer(status: .accepted, id: id)
        case .duplicate(let id):
            PipelineMetrics.received(version: version, outcome: "duplicate")
            context.logger.info("notification redelivered", metadata: [LogKey.notificationID: "\(id)"])
            return IntakeAnswer(status: .duplicate, id: id)
        }
    }
}
