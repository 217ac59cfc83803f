import Foundation

/// Colour for people at a terminal, never in pipes or files, and never when `NO_COLOR`
/// is set (https://no-color.org) or the terminal is `dumb`.
enum Style {
    /// Whether stdout gets ANSI colours; decided once per process.
    static let isEnabled: Bool = {
        let environment = ProcessInfo.processInfo.environment
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return isatty(STDOUT_FILENO) == 1
    }()

    /// A subscription status (`active`, `expired`, …) coloured by what it means for the customer.
    static func status(_ status: String) -> String {
        switch status {
        case "active": return paint(status, "32")  // green: entitled
        case "grace_period": return paint(status, "33")  // yellow: entitled, but billing failed
        case "billing_retry": return paint(status, "35")  // magenta: not entitled, may recover
        case "expired": return paint(status, "2")  // dim: over
        case "revoked": return paint(status, "31")  // red: refunded
        default: return status
        }
    }

    /// An inbox state coloured by whether it needs attention.
    static func state(_ state: String) -> String {
        switch state {
        case "processed", "delivered": return paint(state, "32")
        case "pending": return paint(state, "36")
        case "retrying": return paint(state, "33")
        case "dead": return paint(state, "1;31")
        default: return state
        }
    }

    /// An attempt's outcome (`processed`, `retry`, `dead`), coloured like the states it leads to.
    static func outcome(_ outcome: String) -> String {
        outcome == "retry" ? paint(outcome, "33") : state(outcome)
    }

    /// Bold, for section headings.
    static func heading(_ text: String) -> String {
        paint(text, "1")
    }

    /// Wraps text in an SGR sequence when colour is enabled.
    static func paint(_ text: String, _ code: String) -> String {
        isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Characters a terminal shows: ANSI escape sequences take no room.
    static func visibleWidth(_ text: String) -> Int {
        var width = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                width += 1
            }
        }
        return width
    }
}
