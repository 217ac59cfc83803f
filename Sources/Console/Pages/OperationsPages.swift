import Access
import AppStore
import Foundation
import Hummingbird
import JSON
import Store
import StoredAnswers
import Subscriptions
import UseCases

/// Operations: the inbox (notifications) and the outbox (webhook events) by state, each
/// item's page, replaying a dead one (admins), and the product catalog.
extension ConsoleController {
    func addOperationsRoutes(to console: RouterGroup<Context>) {
        page(console, "notifications") { request, _, session in
            let state = Self.filter(request, "state")
            let type = Self.filter(request, "type")
            let before = Self.filter(request, "before").flatMap(ListCursor.init(text:))
            let found = try await services.operations.notifications(state: state, type: type, before: before)
            let content = NotificationListContent(page: found, state: state, type: type)
            return try html(
                PageFrame(title: "Notifications", section: "Notifications", session: session, content: content),
                template: "notifications")
        }
        page(console, "notifications/:id") { request, context, session in
            guard let id = context.parameters.get("id").flatMap(Int64.init),
                let detail = try await services.operations.notification(id: id)
            else { throw ConsolePageError(.notFound, "No such notification.") }
            return try html(
                PageFrame(
                    title: "Notification \(id)", section: "Notifications", session: session,
                    notice: Self.notice(request), content: NotificationContent(detail)),
                template: "notification")
        }
        addReplay(to: console, queue: .notification, path: "notifications")
        page(console, "webhooks") { request, _, session in
            let state = Self.filter(request, "state")
            let before = Self.filter(request, "before").flatMap(ListCursor.init(text:))
            let found = try await services.operations.webhookEvents(state: state, before: before)
            return try html(
                PageFrame(
                    title: "Webhooks", section: "Webhooks", session: session, content: WebhookListContent(page: found, state: state)),
                template: "webhooks")
        }
        page(console, "webhooks/:id") { request, context, session in
            guard let id = context.parameters.get("id").flatMap(Int64.init),
                let summary = try await services.operations.webhookEvent(id: id)
            else { throw ConsolePageError(.notFound, "No such webhook event.") }
            return try html(
                PageFrame(
                    title: "Webhook event \(id)", section: "Webhooks", session: session,
                    notice: Self.notice(request), content: WebhookListContent.Row(summary)),
                template: "webhook")
        }
        addReplay(to: console, queue: .webhook, path: "webhooks")
        page(console, "refund-requests") { request, _, session in
            let state = Self.filter(request, "state")
            let requests = try await services.operations.refundRequests(state: state)
            return try html(
                PageFrame(
                    title: "Refund requests", section: "Refund requests", session: session,
                    content: RefundRequestsContent(requests, state: state)), template: "refund-requests")
        }
        page(console, "products") { _, _, session in
            let catalog = try await services.answers.catalog()
            return try html(
                PageFrame(title: "Products", section: "Products", session: session, content: ProductsContent(catalog)), template: "products"
            )
        }
    }
}

extension ConsoleController {
    /// The query parameter `name` of a list's filter; nil when absent or empty ("any").
    fileprivate static func filter(_ request: Request, _ name: Substring) -> String? {
        request.uri.queryParameters[name].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `POST /console/PATH/:id/replay`: an admin puts a dead item of `queue` back to work.
    fileprivate func addReplay(to console: RouterGroup<Context>, queue: DeadWorkReplay.Queue, path: String) {
        action(console, RouterPath("\(path)/:id/replay"), needs: .replay) { _, context, session, _ in
            guard let id = context.parameters.get("id").flatMap(Int64.init) else { throw ConsolePageError(.notFound, "No such item.") }
            try await services.replay.replay(queue, id: id, by: session.principal)
            return redirect("/console/\(path)/\(id)?notice=replayed")
        }
    }
}

/// A state filter's choices, the chosen one marked.
struct StateChoice {
    let value: String
    let label: String
    let selected: Bool

    static func choices(_ states: [String], selected: String?) -> [StateChoice] {
        [StateChoice(value: "", label: "any", selected: selected == nil)]
            + states.map { StateChoice(value: $0, label: $0, selected: $0 == selected) }
    }
}

/// The notifications list's values.
struct NotificationListContent {
    struct Row {
        let id: String
        let href: String
        let received: String
        let kind: String
        let state: String
        let dead: Bool
        let environment: String
        let app: String
        let purchase: String
        let attempts: String
        let lastError: String
    }

    let rows: [Row]
    let states: [StateChoice]
    let type: String
    let older: String?

    init(page: NotificationPage, state: String?, type: String?) {
        rows = page.items.map { summary in
            Row(
                id: "\(summary.id)", href: "/console/notifications/\(summary.id)", received: ConsoleTime.minute(summary.receivedAt),
                kind: summary.kind, state: summary.state, dead: summary.state == InboxState.dead.rawValue,
                environment: summary.environment, app: summary.bundleID, purchase: summary.originalTransactionID ?? "–",
                attempts: "\(summary.attempts)", lastError: summary.lastError ?? "")
        }
        states = StateChoice.choices(InboxState.allCases.map(\.rawValue), selected: state)
        self.type = type ?? ""
        older = page.next.map { next in
            "/console/notifications?state=\(PathText.query(state ?? ""))&type=\(PathText.query(type ?? ""))&before=\(PathText.query(next.text))"
        }
    }
}

/// One notification's values: the row, its attempts, and its body as an operator may read it.
struct NotificationContent {
    struct Attempt {
        let number: String
        let started: String
        let outcome: String
        let error: String
    }

    let id: String
    let kind: String
    let state: String
    let dead: Bool
    let environment: String
    let app: String
    let purchase: String
    let purchaseHref: String?
    let customer: String?
    let customerHref: String?
    let received: String
    let processed: String
    let attempts: [Attempt]
    let body: String

    init(_ detail: NotificationDetail) {
        let summary = detail.summary
        id = "\(summary.id)"
        kind = summary.kind
        state = summary.state
        dead = summary.state == InboxState.dead.rawValue
        environment = summary.environment
        app = summary.bundleID
        purchase = summary.originalTransactionID ?? "–"
        purchaseHref = summary.originalTransactionID.map {
            ConsoleLinks.purchase(originalTransactionID: $0, environment: summary.environment)
        }
        customer = summary.appUserID
        customerHref = summary.appUserID.map(ConsoleLinks.customer)
        received = ConsoleTime.minute(summary.receivedAt)
        processed = ConsoleTime.minute(summary.processedAt)
        attempts = detail.attempts.map {
            Attempt(number: "\($0.attempt)", started: ConsoleTime.minute($0.startedAt), outcome: $0.outcome, error: $0.error ?? "")
        }
        body = ReadableJSON.text(JSONValue.readableStoredBody(detail.body))
    }
}

/// The webhooks list's values.
struct WebhookListContent {
    struct Row {
        let id: String
        let href: String
        let eventID: String
        let type: String
        let created: String
        let state: String
        let dead: Bool
        let environment: String
        let app: String
        let purchase: String
        let purchaseHref: String?
        let users: String
        let change: String
        let attempts: String
        let lastError: String
        let delivered: String

        init(_ summary: WebhookEventSummary) {
            let event = summary.event
            id = "\(event.id)"
            href = "/console/webhooks/\(event.id)"
            eventID = event.eventID
            type = event.type.rawValue
            created = ConsoleTime.minute(event.createdAt)
            state = summary.state.rawValue
            dead = summary.state == .dead
            environment = event.environment.rawValue
            app = event.bundleID
            purchase = event.originalTransactionID ?? "–"
            purchaseHref = event.originalTransactionID.map {
                ConsoleLinks.purchase(originalTransactionID: $0, environment: event.environment.rawValue)
            }
            users = event.appUserIDs.isEmpty ? "–" : event.appUserIDs.joined(separator: ", ")
            change =
                (event.previousStatus?.rawValue ?? "–") + " → " + (event.subscription?.snapshot.status.rawValue ?? "–")
            attempts = "\(summary.attempts)"
            lastError = [summary.lastStatus.map { "HTTP \($0)" }, summary.lastError].compactMap { $0 }.joined(separator: ": ")
            delivered = ConsoleTime.minute(summary.deliveredAt)
        }
    }

    let rows: [Row]
    let states: [StateChoice]
    let older: String?

    init(page: WebhookEventPage, state: String?) {
        rows = page.items.map(Row.init)
        states = StateChoice.choices(WebhookEventState.allCases.map(\.rawValue), selected: state)
        older = page.next.map { "/console/webhooks?state=\(PathText.query(state ?? ""))&before=\(PathText.query($0.text))" }
    }
}

/// The refund requests page's values: Apple's CONSUMPTION_REQUESTs and what was answered.
struct RefundRequestsContent {
    struct Row {
        let id: String
        let requested: String
        let deadline: String
        let state: String
        let attention: Bool
        let purchase: String
        let purchaseHref: String
        let product: String
        let reason: String
        let sent: String
        let outcome: String
        let lastError: String
    }

    let rows: [Row]
    let states: [StateChoice]

    init(_ requests: [ConsumptionRequest], state: String?) {
        rows = requests.map { request in
            Row(
                id: "\(request.id)", requested: ConsoleTime.minute(request.requestedAt), deadline: ConsoleTime.minute(request.deadline),
                state: request.state.rawValue, attention: request.state == .failed,
                purchase: request.originalTransactionID,
                purchaseHref: ConsoleLinks.purchase(
                    originalTransactionID: request.originalTransactionID, environment: request.environment.rawValue),
                product: request.productID ?? "–", reason: request.reason ?? "–", sent: ConsoleTime.minute(request.sentAt),
                outcome: [request.outcome, request.outcomeAt.map { ConsoleTime.minute($0) }].compactMap { $0 }.joined(separator: " "),
                lastError: request.lastError ?? "")
        }
        states = StateChoice.choices(ConsumptionRequest.State.allCases.map(\.rawValue), selected: state)
    }
}

/// The products page's values.
struct ProductsContent {
    struct ProductRow {
        let id: String
        let app: String
        let type: String
        let group: String
        let period: String
        let intro: String
        let price: String
    }

    struct EntitlementRow {
        let id: String
        let products: String
    }

    let products: [ProductRow]
    let entitlements: [EntitlementRow]

    init(_ catalog: ProductCatalog) {
        products = catalog.products.sorted { ($0.bundleID, $0.productID) < ($1.bundleID, $1.productID) }.map { product in
            ProductRow(
                id: product.productID, app: product.bundleID, type: product.type.rawValue, group: product.subscriptionGroupID ?? "–",
                period: product.period.map { "\($0)" } ?? "–",
                intro: product.introOffer.map { "\($0.paymentMode.rawValue) \($0.period)" } ?? "–",
                price: product.price.map { "\(PurchaseMoney.text($0.amount)) \($0.currency)" } ?? "–")
        }
        entitlements = catalog.entitlements.sorted { $0.id < $1.id }.map {
            EntitlementRow(id: $0.id, products: $0.productIDs.joined(separator: ", "))
        }
    }
}

/// JSON as indented text with sorted keys, for a page's `<pre>`.
enum ReadableJSON {
    static func text(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "(not JSON)" }
        return String(decoding: data, as: UTF8.self)
    }
}
