import Access
import AppStore
import ContractDocuments
import Foundation
import Hummingbird
import Store
import Subscriptions
import UseCases

/// Customers: the search, a customer's page with its timeline, the actions support may take
/// (grant, revoke a grant, check with Apple, unlink) and an admin's delete, with its
/// confirmation page; and one purchase's page.
extension ConsoleController {
    func addCustomerRoutes(to console: RouterGroup<Context>) {
        page(console, "customers") { request, _, session in
            try await search(request, session: session)
        }
        page(console, "customers/:id") { request, context, session in
            let appUserID = try customerID(context)
            guard let profile = try await services.profiles.view(appUserID: appUserID) else {
                throw ConsolePageError(.notFound, "No customer is known as \(appUserID) (never linked to a purchase, or deleted).")
            }
            let before = request.uri.queryParameters["before"].flatMap { TimelineCursor(text: String($0)) }
            let timeline = try await services.customers.timeline(appUserID: appUserID, before: before, limit: Self.timelinePageSize)
            // Who else each purchase is linked to (a shared login, family members, a reinstall under a new id).
            let others = Dictionary(grouping: try await services.customers.linkedUsers(of: appUserID), by: \.originalTransactionID)
                .mapValues { $0.map(\.appUserID) }
            let content = CustomerContent(
                profile: profile, linkedUsers: others, timeline: timeline, olderBase: ConsoleLinks.customer(appUserID), now: Date())
            return try html(
                PageFrame(
                    title: "Customer \(appUserID)", section: "Customers", session: session,
                    notice: Self.notice(request), content: content), template: "customer")
        }
        action(console, "customers/:id/grants", needs: .grant) { _, context, session, form in
            let appUserID = try customerID(context)
            let until = try form["expires_at"].map { text -> Date in
                // The grant lasts through the chosen day (UTC).
                guard let day = UTCDay.parse(text) else { throw ConsolePageError(.badRequest, "Until must be a date such as 2027-01-31.") }
                return day.addingTimeInterval(86_400)
            }
            _ = try await services.grants.add(
                appUserID: appUserID, entitlement: form["entitlement"] ?? "", expiresAt: until, reason: form["reason"] ?? "",
                actor: session.principal.actor)
            return redirect(ConsoleLinks.customer(appUserID) + "?notice=granted")
        }
        action(console, "customers/:id/grants/:grant/revoke", needs: .revokeGrant) { _, context, session, _ in
            let appUserID = try customerID(context)
            guard let id = context.parameters.get("grant").flatMap(Int64.init), id > 0 else {
                throw ConsolePageError(.badRequest, "That is not a grant's number.")
            }
            _ = try await services.grants.revoke(id: id, appUserID: appUserID, reason: nil, actor: session.principal.actor)
            return redirect(ConsoleLinks.customer(appUserID) + "?notice=revoked")
        }
        action(console, "customers/:id/recheck", needs: .recheck) { _, context, session, _ in
            let appUserID = try customerID(context)
            guard let profile = try await services.profiles.view(appUserID: appUserID) else {
                throw ConsolePageError(.notFound, "No customer is known as \(appUserID).")
            }
            let outcome = try await services.recheck.recheck(
                appUserID: appUserID, originalTransactionIDs: profile.document.views.map(\.snapshot.originalTransactionID),
                by: session.principal)
            return redirect(
                ConsoleLinks.customer(appUserID)
                    + "?notice=rechecked&checked=\(outcome.checked)&failed=\(outcome.failures.count)&skipped=\(outcome.skipped)")
        }
        action(console, "customers/:id/unlink", needs: .unlink) { _, context, session, form in
            let appUserID = try customerID(context)
            guard let originalTransactionID = form["original_transaction_id"] else {
                throw ConsolePageError(.badRequest, "Say which purchase to unlink.")
            }
            try await services.forgetting.unlink(
                appUserID: appUserID, originalTransactionID: originalTransactionID, actor: session.principal.actor)
            return redirect(ConsoleLinks.customer(appUserID) + "?notice=unlinked")
        }
        page(console, "customers/:id/delete", needs: .deleteCustomer) { _, context, session in
            let appUserID = try customerID(context)
            guard try await services.profiles.view(appUserID: appUserID) != nil else {
                throw ConsolePageError(.notFound, "No customer is known as \(appUserID).")
            }
            return try html(
                PageFrame(
                    title: "Delete customer \(appUserID)", section: "Customers", session: session,
                    content: ["appUserID": appUserID, "path": PathText.segment(appUserID)]), template: "customer-delete")
        }
        action(console, "customers/:id/delete", needs: .deleteCustomer) { _, context, session, _ in
            _ = try await services.forgetting.forget(appUserID: try customerID(context), by: session.principal)
            return redirect("/console/customers?notice=deleted")
        }
        page(console, "purchases/:environment/:id") { request, context, session in
            guard let environment = context.parameters.get("environment").flatMap(PathText.decoded),
                let id = context.parameters.get("id").flatMap(PathText.decoded)
            else { throw ConsolePageError(.badRequest, "That is not a purchase's address.") }
            let before = request.uri.queryParameters["before"].flatMap { TimelineCursor(text: String($0)) }
            async let story = services.profiles.purchaseStory(originalTransactionID: id, environment: environment)
            let timeline = try await services.customers.timeline(
                originalTransactionID: id, environment: environment, before: before, limit: Self.timelinePageSize)
            let content = try await PurchaseContent(
                originalTransactionID: id, environment: environment, story: story, timeline: timeline)
            guard content.hasStory || !timeline.items.isEmpty || before != nil else {
                throw ConsolePageError(.notFound, "No purchase \(id) in \(environment).")
            }
            return try html(
                PageFrame(title: "Purchase \(id)", section: "Customers", session: session, content: content), template: "purchase")
        }
    }

    /// Timeline items per page.
    static var timelinePageSize: Int { 50 }

    /// The customer search: one customer found goes to its page, one unlinked purchase to
    /// the purchase's page; several are listed.
    private func search(_ request: Request, session: ConsoleSession) async throws -> Response {
        let query = request.uri.queryParameters["q"].map(String.init) ?? ""
        let notice = Self.notice(request)
        let matches = query.isEmpty ? [] : try await services.customers.search(query)
        let users = Set(matches.compactMap(\.appUserID))
        if users.count == 1, let user = users.first, matches.allSatisfy({ $0.appUserID == user }) {
            return redirect(ConsoleLinks.customer(user))
        }
        if matches.count == 1, let match = matches.first, match.appUserID == nil, let id = match.originalTransactionID,
            let environment = match.environment
        {
            return redirect(ConsoleLinks.purchase(originalTransactionID: id, environment: environment))
        }
        let content = SearchContent(query: query, matches: matches)
        return try html(
            PageFrame(title: "Customers", section: "Customers", session: session, notice: notice, content: content), template: "customers")
    }

    /// The customer named by the path.
    private func customerID(_ context: Context) throws -> String {
        guard let id = context.parameters.get("id").flatMap(PathText.decoded), !id.isEmpty else {
            throw ConsolePageError(.badRequest, "That is not a customer's address.")
        }
        return id
    }

    /// The sentence for a `notice` the server put in a redirect (only fixed sentences and
    /// numbers: nothing typed is echoed).
    static func notice(_ request: Request) -> String {
        let parameters = request.uri.queryParameters
        func number(_ name: Substring) -> Int { parameters[name].flatMap { Int(String($0)) } ?? 0 }
        switch parameters["notice"].map(String.init) {
        case "granted": return "Entitlement granted."
        case "revoked": return "Grant revoked."
        case "unlinked": return "Purchase unlinked from this customer."
        case "deleted": return "Customer deleted: links, grants and tokens removed."
        case "rechecked":
            return "Checked with Apple: \(number("checked")) subscription(s) read again"
                + (number("failed") > 0 ? ", \(number("failed")) could not be read" : "")
                + (number("skipped") > 0 ? ", \(number("skipped")) of apps without an App Store Server API key left as they were" : "")
                + "."
        case "replayed": return "Put back to work: it is tried again now."
        default: return ""
        }
    }
}

/// The search page's values.
struct SearchContent {
    struct Row {
        let matchedBy: String
        let appUserID: String?
        let href: String
        let purchase: String
        let environment: String
        let product: String
    }

    let query: String
    let searched: Bool
    let found: Bool
    let rows: [Row]

    init(query: String, matches: [CustomerMatch]) {
        self.query = query
        self.searched = !query.isEmpty
        self.found = !matches.isEmpty
        rows = matches.map { match in
            Row(
                matchedBy: Self.fieldText(match.matchedBy), appUserID: match.appUserID,
                href: match.appUserID.map(ConsoleLinks.customer)
                    ?? ConsoleLinks.purchase(originalTransactionID: match.originalTransactionID ?? "", environment: match.environment ?? ""),
                purchase: match.originalTransactionID ?? "–", environment: match.environment ?? "–", product: match.productID ?? "–")
        }
    }

    private static func fieldText(_ field: CustomerMatch.Field) -> String {
        switch field {
        case .appUserID: "app user id"
        case .originalTransactionID: "original transaction id"
        case .transactionID: "transaction id"
        case .appAccountToken: "app account token"
        }
    }
}

/// One purchase's page: its status and why, its transactions, and its timeline.
struct PurchaseContent {
    struct TransactionRow {
        let transactionID: String
        let kind: String
        let product: String
        let bought: String
        let expires: String
        let note: String
    }

    let originalTransactionID: String
    let environment: String
    /// True for a subscription (a one-time purchase has only its timeline).
    let hasStory: Bool
    let status: String
    let why: String
    let product: String
    let transactions: [TransactionRow]
    let timeline: TimelineContent

    init(originalTransactionID: String, environment: String, story: SubscriptionStory?, timeline: TimelinePage) {
        self.originalTransactionID = originalTransactionID
        self.environment = environment
        self.hasStory = story != nil
        status = story?.view.snapshot.status.rawValue ?? "–"
        why = story.map { StatusExplanation.sentence($0, time: ConsoleTime.minute) } ?? "–"
        product = story?.view.snapshot.productID ?? "–"
        transactions = (story?.view.transactions ?? []).reversed().map { transaction in
            TransactionRow(
                transactionID: transaction.transactionID, kind: StatusExplanation.kind(transaction), product: transaction.productID,
                bought: ConsoleTime.minute(transaction.purchaseDate), expires: ConsoleTime.minute(transaction.expiresDate),
                note: StatusExplanation.note(transaction, time: ConsoleTime.minute))
        }
        self.timeline = TimelineContent(
            page: timeline, olderBase: ConsoleLinks.purchase(originalTransactionID: originalTransactionID, environment: environment))
    }
}
