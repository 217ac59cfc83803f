import Access
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ServiceSupport
import Store
import UseCases

/// `/console`: the web console on subscriptiond's own listener (DESIGN.md, "Console").
/// Every page but the sign-in page needs a live session; every form carries the session's
/// CSRF token and a POST without it is refused (403) before anything changes; every answer
/// carries the security headers. Pages call the same use cases as the API and the CLI.
public struct ConsoleController<Context: ConsoleRequestContext>: Sendable {
    let services: ConsoleServices
    let templates: ConsoleTemplates
    /// True when the listener serves plain HTTP on a loopback address: only then does the
    /// session cookie go without `Secure` (a browser would not send it back over HTTP).
    let loopbackHTTP: Bool

    static var sessionCookie: String { "subscriptiond_console" }
    static var signInCookie: String { "subscriptiond_console_signin" }

    public init(services: ConsoleServices, templates: ConsoleTemplates, loopbackHTTP: Bool) {
        self.services = services
        self.templates = templates
        self.loopbackHTTP = loopbackHTTP
    }

    public func addRoutes(to router: Router<Context>) {
        let console = router.group("console")
        console.get("static/console.css") { _, _ in
            var response = Response(
                status: .ok, headers: [.contentType: "text/css; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: templates.stylesheet)))
            SecurityHeaders.apply(to: &response.headers)
            response.headers[.cacheControl] = "max-age=300"
            return response
        }
        addSignInRoutes(to: console)
        addOverviewRoutes(to: console)
        addCustomerRoutes(to: console)
        addOperationsRoutes(to: console)
        addKeyRoutes(to: console)
        // Any other console address: a 404 page (after sign-in, so it says nothing to strangers).
        page(console, "**") { _, _, _ in throw ConsolePageError(.notFound, "The console has no such page.") }
    }

    // MARK: Routes with a session

    /// Adds a GET page that needs a session (without one, 303 to the sign-in page) and, with
    /// `needs`, a role that may do that action (else 403): the one place roles are checked.
    func page(
        _ group: RouterGroup<Context>, _ path: RouterPath, needs: ConsoleAction? = nil,
        _ handler: @escaping @Sendable (Request, Context, ConsoleSession) async throws -> Response
    ) {
        group.get(path) { request, context in
            await answer(request, context, needs: needs) { session in try await handler(request, context, session) }
        }
    }

    /// Adds a form POST that needs a session, a role that may do `needs` (when given), and the
    /// session's CSRF token: a missing or stale token, or a role short of it, is 403 and
    /// nothing runs.
    func action(
        _ group: RouterGroup<Context>, _ path: RouterPath, needs: ConsoleAction? = nil,
        _ handler: @escaping @Sendable (Request, Context, ConsoleSession, ConsoleForm) async throws -> Response
    ) {
        group.post(path) { request, context in
            await answer(request, context, needs: needs) { session in
                let form = try await ConsoleForm.read(request)
                guard let token = form.fields["csrf_token"], session.accepts(csrfToken: token) else {
                    throw ConsolePageError(
                        .forbidden, "This form has expired or did not come from the console. Reload the page and try again.")
                }
                return try await handler(request, context, session, form)
            }
        }
    }

    /// Runs `body` for the request's session when its role may do `needs`, or sends the
    /// browser to sign in; renders any error as a page of its status.
    private func answer(
        _ request: Request, _ context: Context, needs: ConsoleAction?, _ body: (ConsoleSession) async throws -> Response
    ) async -> Response {
        let session: ConsoleSession
        do {
            guard let cookie = request.cookies[Self.sessionCookie]?.value,
                let found = try await services.sessions.session(cookie: cookie)
            else {
                return secured(.redirect(to: "/console/sign-in", type: .normal))
            }
            session = found
        } catch {
            return errorPage(error, session: nil, context: context)
        }
        do {
            if let needs, !session.role.may(needs) {
                throw ConsolePageError(
                    .forbidden, "Your role (\(session.role.rawValue)) may not do this; it needs \(needs.leastRole.rawValue).")
            }
            return secured(try await body(session))
        } catch {
            return errorPage(error, session: session, context: context)
        }
    }

    // MARK: Answers

    /// A page: `template` inside the layout, with `frame`.
    func html(_ frame: PageFrame, template: String, status: HTTPResponse.Status = .ok) throws -> Response {
        let body = try templates.render(frame, template: template)
        return secured(
            Response(
                status: status, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: body))))
    }

    /// 303 to `location` (a console path built by the server, never from input).
    func redirect(_ location: String) -> Response {
        .redirect(to: location, type: .normal)
    }

    /// `response` with the security headers.
    func secured(_ response: Response) -> Response {
        var response = response
        SecurityHeaders.apply(to: &response.headers)
        return response
    }

    /// The page for `error`: a use case's refusal by its kind, the database's absence as 503,
    /// anything else a logged 500 that shows no detail.
    func errorPage(_ error: any Error, session: ConsoleSession?, context: Context) -> Response {
        let (status, message) = Self.statusAndMessage(error, logger: context.logger)
        let title = status == .notFound ? "Not found" : status == .forbidden ? "Not allowed" : "Something went wrong"
        let frame =
            session.map { PageFrame(title: title, section: "", session: $0, alert: message) }
            ?? PageFrame(signedOutTitle: title, csrfToken: "", alert: message)
        do {
            return try html(frame, template: "error", status: status)
        } catch {
            context.logger.error("console error page failed", metadata: [LogKey.error: "\(error)"])
            return secured(Response(status: status, body: .init(byteBuffer: ByteBuffer(string: message))))
        }
    }

    static func statusAndMessage(_ error: any Error, logger: Logger) -> (HTTPResponse.Status, String) {
        switch error {
        case let error as ConsolePageError:
            return (error.status, error.message)
        case let error as UseCaseError:
            switch error {
            case .notFound: return (.notFound, error.description)
            case .forbidden: return (.forbidden, error.description)
            case .alreadyExists: return (.conflict, error.description)
            case .unavailable: return (.serviceUnavailable, error.description)
            default: return (.badRequest, error.description)
            }
        case _ where StoreFailure(error)?.canHeal == true:
            logger.warning("console: database unavailable", metadata: [LogKey.error: "\(error)"])
            return (.serviceUnavailable, "The database is unavailable; try again in a moment.")
        case _ where StoreFailure(error) == .unstorableText:
            return (.badRequest, "The text holds a character that cannot be stored (a NUL byte).")
        default:
            logger.error("console page failed", metadata: [LogKey.error: "\(error)"])
            return (.internalServerError, "The page could not be made; the server's log says why.")
        }
    }
}
