import Access
import Foundation
import ServiceSupport
import Store

/// A signed-in console user, as each request of the session finds it.
public struct ConsoleSession: Sendable, Equatable {
    /// The user's name.
    public let userName: String
    /// What the user may do.
    public let role: ConsoleRole
    /// The token every form of the session carries (compared in constant time).
    public let csrfToken: String

    public init(userName: String, role: ConsoleRole, csrfToken: String) {
        self.userName = userName
        self.role = role
        self.csrfToken = csrfToken
    }

    /// The principal the user acts as: its audit rows say `console:<name>`.
    public var principal: Principal { role.principal(name: userName) }

    /// True when `token` is this session's CSRF token.
    public func accepts(csrfToken token: String) -> Bool {
        ConstantTime.equals(Array(token.utf8), Array(csrfToken.utf8))
    }
}

/// Signing in to the console, finding the session of a request, signing out. A session's
/// id is 256 random bits in the cookie, stored only as its SHA-256; a new id is made at every
/// sign-in (an id planted before it is worth nothing); a session unused for `idle` ends.
public struct ConsoleSessions: Sendable {
    /// How a sign-in went.
    public enum SignIn: Sendable, Equatable {
        /// Signed in: `cookie` is the session's id for the browser (never stored).
        case signedIn(cookie: String, session: ConsoleSession)
        /// Unknown user, removed user or wrong password: one answer for all, so the answer
        /// does not tell which names exist.
        case refused
        /// Too many failures from the address: try again after `retryAfter`.
        case throttled(retryAfter: Duration)
    }

    private let repository: any ConsoleSessionRepository
    /// A session unused this long has ended.
    public let idle: Duration
    private let throttle: SignInThrottle
    /// Checked when the name is unknown, so an unknown name costs what a wrong password does
    /// (made once per process, at the first such sign-in, from a password nobody knows).
    private static let decoyHash = ConsolePassword.hash(RandomToken.generate())

    public init(repository: any ConsoleSessionRepository, idle: Duration, throttle: SignInThrottle = SignInThrottle()) {
        self.repository = repository
        self.idle = idle
        self.throttle = throttle
    }

    /// Signs `name` in with `password`, from client `address`.
    public func signIn(name: String, password: String, address: String) async throws -> SignIn {
        if let wait = throttle.wait(for: address) { return .throttled(retryAfter: wait) }
        let user = PrincipalName.isValid(name, extra: "@") ? try await repository.activeUser(named: name) : nil
        let hash = user?.passwordHash ?? Self.decoyHash
        // bcrypt takes a quarter of a second by design: off the caller's thread.
        let matches = await Task.detached(priority: .userInitiated) {
            password.utf8.count <= ConsolePassword.maximumBytes && ConsolePassword.verify(password, hash: hash)
        }.value
        guard let user, matches else {
            throttle.recordFailure(from: address)
            return .refused
        }
        throttle.reset(address)
        let cookie = RandomToken.generate()
        let session = ConsoleSession(userName: user.name, role: user.role, csrfToken: RandomToken.generate())
        try await repository.create(
            idDigest: RandomToken.digest(of: cookie), userName: user.name, csrfToken: session.csrfToken, idle: idle)
        return .signedIn(cookie: cookie, session: session)
    }

    /// The live session whose cookie is `cookie`, or nil (unknown, idle too long, user removed).
    public func session(cookie: String) async throws -> ConsoleSession? {
        guard !cookie.isEmpty, cookie.utf8.count <= 128 else { return nil }
        return try await repository.resume(idDigest: RandomToken.digest(of: cookie), idle: idle).map {
            ConsoleSession(userName: $0.userName, role: $0.role, csrfToken: $0.csrfToken)
        }
    }

    /// Ends the session whose cookie is `cookie`.
    public func signOut(cookie: String) async throws {
        guard !cookie.isEmpty, cookie.utf8.count <= 128 else { return }
        try await repository.end(idDigest: RandomToken.digest(of: cookie))
    }
}
