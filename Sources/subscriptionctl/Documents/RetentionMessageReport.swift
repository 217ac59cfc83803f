import AppStoreServerAPI

/// `retention messages list`: Apple's messages, those the app's retention rules answer with
/// marked, and a warning for each rule message Apple has not approved or does not have.
struct RetentionMessageReport {
    let messages: [RetentionMessage]
    /// Lower-cased identifiers the rules name (`RetentionRuleMessages`).
    let usedByRules: Set<String>

    /// Whether a rule answers with `message`.
    func isUsed(_ message: RetentionMessage) -> Bool {
        usedByRules.contains(message.identifier.lowercased())
    }

    /// One line per rule message Apple would not show: not approved, or not uploaded at all.
    var warnings: [String] {
        let uploaded = Dictionary(messages.map { ($0.identifier.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        return usedByRules.sorted().compactMap { identifier in
            guard let message = uploaded[identifier] else {
                return "message \(identifier) is named by a retention rule but not uploaded: the App Store shows the default message"
            }
            guard message.state != .approved else { return nil }
            return
                "message \(identifier) is named by a retention rule but is \(message.stateRaw ?? "without a state"), not APPROVED: the App Store shows the default message"
        }
    }

    /// The table for people.
    func table() -> String {
        var table = Table("MESSAGE", "STATE", "USED BY RULES")
        for message in messages {
            let state = message.stateRaw ?? "-"
            table.append([message.identifier, Self.painted(state), isUsed(message) ? "yes" : "-"])
        }
        return table.render()
    }

    /// A review state coloured by what it means: green shown, red never, yellow not yet.
    static func painted(_ state: String) -> String {
        switch state {
        case "APPROVED": Style.paint(state, "32")
        case "REJECTED": Style.paint(state, "31")
        default: Style.paint(state, "33")
        }
    }

    /// The `--json` document.
    func document(app: String, environment: String) -> Document {
        Document(
            app: app, environment: environment,
            messages: messages.map { .init(messageIdentifier: $0.identifier, state: $0.stateRaw, usedByRules: isUsed($0)) },
            warnings: warnings)
    }

    /// `{"app", "environment", "messages": [{"message_identifier", "state", "used_by_rules"}], "warnings"}`.
    struct Document: Encodable {
        let app: String
        let environment: String
        let messages: [Item]
        let warnings: [String]

        struct Item: Encodable {
            let messageIdentifier: String
            let state: String?
            let usedByRules: Bool

            enum CodingKeys: String, CodingKey {
                case messageIdentifier = "message_identifier", state, usedByRules = "used_by_rules"
            }
        }
    }
}
