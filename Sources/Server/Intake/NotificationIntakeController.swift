import Hummingbird
import Logging
import Store
import SubscriptiondCore

/// `POST /notifications/appstore`: authenticate, store durably, then answer.
///
/// Does no upstream call, so it stays fast while Apple's verify endpoint is slow or down.
struct NotificationIntakeController<Context: RequestContext> {
    let parser: NotificationIntakeParser
    let signed: SignedNotificationIntake
    let inbox: NotificationInbox
    let workerSignal: WorkerSignal
    let maxBodyBytes: Int

    func addRoutes(to router: Router<Context>) {
        router.post("/notifications/appstore") { request, context in
            try await accept(request, context: context)
        }
    }

    func accept(_ request: Request, context: Context) async throws -> JSONResponse<IntakeAnswer> {
        let body = try await RequestBody.json(request, maxBytes: maxBodyBytes)
        let draft: InboxEntryDraft
        do {
            switch try parser.parse(body) {
            case .v1(let v1): draft = v1
            case .signed(let jws): draft = try await signed.draft(signedPayload: jws, logger: context.logger)
            }
        } catch {
            context.logger.info("notification rejected", metadata: [LogKey.error: "\(error.message)"])
            throw error
        }
        let result = try await inbox.insert(InboxEntry(
            source: draft.source, dedupeKey: draft.dedupeKey, notificationType: draft.notificationType,
            notificationSubtype: draft.subtype, environment: draft.environment, bundleID: draft.bundleID,
            originalTransactionID: draft.originalTransactionID, body: draft.storedBody
        ))
        switch result {
        case .accepted(let id):
            await workerSignal.signal()
            context.logger.info("notification accepted", metadata: [
                LogKey.notificationID: "\(id)", LogKey.notificationType: "\(draft.notificationType)", LogKey.bundleID: "\(draft.bundleID)",
            ])
            return JSONResponse(document: IntakeAnswer(status: "accepted", id: id))
        case .duplicate(let id):
            context.logger.info("notification redelivered", metadata: [LogKey.notificationID: "\(id)"])
            return JSONResponse(document: IntakeAnswer(status: "duplicate", id: id))
        }
    }
}

/// `{"status":"accepted"|"duplicate","id":N}`.
struct IntakeAnswer: Encodable, Sendable {
    let status: String
    let id: Int64
}
