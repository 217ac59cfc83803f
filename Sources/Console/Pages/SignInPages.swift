import Access
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ServiceSupport
import UseCases

/// Signing in and out. The sign-in form's CSRF token is a random value also set as a
/// short-lived cookie (double submit): a form posted from elsewhere lacks the cookie. A
/// successful sign-in makes a new session id, whatever cookie the browser brought.
extension ConsoleController {
    func addSignInRoutes(to console: RouterGroup<Context>) {
        console.get("sign-in") { request, context in
            if let cookie = request.cookies[Self.sessionCookie]?.value,
                (try? await services.sessions.session(cookie: cookie)) != nil
            {
                return secured(redirect("/console"))
            }
            return signInPage(request, status: .ok, alert: "")
        }
        console.post("sign-in") { request, context in
            do {
                return try await signIn(request, context)
            } catch {
                return errorPage(error, session: nil, context: context)
            }
        }
        action(console, "sign-out") { request, _, _, _ in
            if let cookie = request.cookies[Self.sessionCookie]?.value {
                try await services.sessions.signOut(cookie: cookie)
            }
            var response = redirect("/console/sign-in")
            response.setCookie(expired(Self.sessionCookie, request: request))
            return response
        }
    }

    private func signIn(_ request: Request, _ context: Context) async throws -> Response {
        let form = try await ConsoleForm.read(request)
        guard let expected = request.cookies[Self.signInCookie]?.value, let token = form.fields["csrf_token"],
            ConstantTime.equals(Array(token.utf8), Array(expected.utf8))
        else {
            throw ConsolePageError(.forbidden, "The sign-in form has expired. Reload the page and try again.")
        }
        let outcome = try await services.sessions.signIn(
            name: form["name"] ?? "", password: form.fields["password"] ?? "", address: context.clientAddress)
        switch outcome {
        case .refused:
            context.logger.notice("console sign-in refused", metadata: ["address": "\(context.clientAddress)"])
            return signInPage(request, status: .unauthorized, alert: "Wrong name or password.")
        case .throttled(let wait):
            let seconds = max(1, Int(wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0))
            var response = signInPage(
                request, status: .tooManyRequests,
                alert: "Too many failed sign-ins from your address. Wait \(seconds) seconds and try again.")
            response.headers[.retryAfter] = "\(seconds)"
            return response
        case .signedIn(let cookie, let session):
            context.logger.info("console sign-in", metadata: ["user": "\(session.userName)"])
            var response = redirect("/console")
            response.setCookie(
                Cookie(
                    name: Self.sessionCookie, value: cookie, path: "/console", secure: secureCookies(request), httpOnly: true,
                    sameSite: .strict))
            response.setCookie(expired(Self.signInCookie, request: request))
            return secured(response)
        }
    }

    /// The sign-in form, with a fresh double-submit token unless the browser holds one.
    private func signInPage(_ request: Request, status: HTTPResponse.Status, alert: String) -> Response {
        let token = request.cookies[Self.signInCookie]?.value.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        let csrf = token.flatMap { $0.count >= 32 && $0.count <= 64 ? $0 : nil } ?? RandomToken.generate()
        var response: Response
        do {
            response = try html(PageFrame(signedOutTitle: "Sign in", csrfToken: csrf, alert: alert), template: "sign-in", status: status)
        } catch {
            response = Response(status: .internalServerError)
        }
        response.setCookie(
            Cookie(
                name: Self.signInCookie, value: csrf, maxAge: 3_600, path: "/console", secure: secureCookies(request), httpOnly: true,
                sameSite: .strict))
        return secured(response)
    }

    /// A cookie that tells the browser to forget `name`.
    private func expired(_ name: String, request: Request) -> Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: "/console", secure: secureCookies(request), httpOnly: true, sameSite: .strict)
    }

    /// Cookies are `Secure` unless the console is reached over plain HTTP on loopback; a
    /// proxy that says the browser used HTTPS (`X-Forwarded-Proto: https`) makes them Secure.
    private func secureCookies(_ request: Request) -> Bool {
        !loopbackHTTP || request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https"
    }
}
