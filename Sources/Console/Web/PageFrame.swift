import Access
import UseCases

/// What every signed-in page shows around its content (the layout template's values): the
/// title, the navigation with the current page marked, who is signed in, the session's CSRF
/// token for the sign-out form, and a notice or an error.
struct PageFrame {
    /// One link of the navigation.
    struct NavLink {
        let title: String
        let href: String
        let current: Bool
    }

    let title: String
    let userName: String
    let role: String
    let csrfToken: String
    let nav: [NavLink]
    /// A sentence saying what an action did (nil: none).
    let notice: String?
    /// A sentence saying what went wrong (nil: nothing).
    let alert: String?
    /// True when the user may act on customers (support, admin).
    let mayAct: Bool
    let isAdmin: Bool
    let signedIn: Bool
    /// The page's own values, which its template reads inside `{{#content}}`.
    let content: Any

    /// The pages in the navigation: (title, path, admin only).
    static let sections: [(title: String, path: String, adminOnly: Bool)] = [
        ("Overview", "/console", false), ("Customers", "/console/customers", false),
        ("Notifications", "/console/notifications", false), ("Webhooks", "/console/webhooks", false),
        ("Refund requests", "/console/refund-requests", false), ("Products", "/console/products", false),
        ("Keys", "/console/keys", true),
    ]

    /// The frame of a page of `session`, in navigation `section`.
    init(
        title: String, section: String, session: ConsoleSession, notice: String = "", alert: String = "", content: Any = [String: String]()
    ) {
        self.title = title
        self.userName = session.userName
        self.role = session.role.rawValue
        self.csrfToken = session.csrfToken
        self.isAdmin = session.role == .admin
        self.mayAct = session.role.may(.grant)
        self.nav = Self.sections.filter { !$0.adminOnly || session.role == .admin }.map {
            NavLink(title: $0.title, href: $0.path, current: $0.title == section)
        }
        self.notice = notice.isEmpty ? nil : notice
        self.alert = alert.isEmpty ? nil : alert
        self.signedIn = true
        self.content = content
    }

    /// The frame of a page shown before sign-in (the sign-in page, its errors).
    init(signedOutTitle title: String, csrfToken: String, alert: String = "", content: Any = [String: String]()) {
        self.title = title
        self.userName = ""
        self.role = ""
        self.csrfToken = csrfToken
        self.nav = []
        self.notice = nil
        self.alert = alert.isEmpty ? nil : alert
        self.mayAct = false
        self.isAdmin = false
        self.signedIn = false
        self.content = content
    }
}
