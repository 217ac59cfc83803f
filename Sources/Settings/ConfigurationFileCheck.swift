import Foundation

/// What `SUBSCRIPTIOND_CONFIG` may hold, checked before it is decoded, and its decoding
/// problems said by where they are: a misspelled key (`webhook_ur`) would otherwise be
/// ignored in silence, and an app would run without what the operator meant to configure.
enum ConfigurationFileCheck {
    /// The keys each level of the file knows.
    static let fileKeys = ["apps", "tax_rates"]
    static let appKeys = ConfigurationFile.App.CodingKeys.allCases.map(\.rawValue)
    static let grandfatherKeys = ConfigurationFile.App.Grandfather.CodingKeys.allCases.map(\.rawValue)
    static let consumptionKeys = ConfigurationFile.App.Consumption.CodingKeys.allCases.map(\.rawValue)
    static let retentionRuleKeys = RetentionRuleEntry.CodingKeys.allCases.map(\.rawValue)
    static let retentionMatchKeys = RetentionRuleEntry.Match.CodingKeys.allCases.map(\.rawValue)
    static let retentionActionKeys = RetentionRuleEntry.Action.CodingKeys.allCases.map(\.rawValue)

    /// The first key the file does not know, said with where it is and the nearest known key;
    /// nil when every key is known (or the file is not a JSON object, which decoding reports).
    static func unknownKey(in data: Data) -> String? {
        guard let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        if let problem = unknownKey(of: file, known: fileKeys, at: "the top level") { return problem }
        for (index, app) in (file["apps"] as? [Any] ?? []).enumerated() {
            guard let app = app as? [String: Any] else { continue }
            let place = "apps[\(index)]" + ((app["bundle_id"] as? String).map { " (\($0))" } ?? "")
            if let problem = unknownKey(of: app, known: appKeys, at: place) { return problem }
            if let rule = app["grandfather"] as? [String: Any],
                let problem = unknownKey(of: rule, known: grandfatherKeys, at: "\(place).grandfather")
            {
                return problem
            }
            if let answers = app["consumption"] as? [String: Any],
                let problem = unknownKey(of: answers, known: consumptionKeys, at: "\(place).consumption")
            {
                return problem
            }
            if let problem = unknownRetentionKey(in: app["retention"] as? [Any] ?? [], at: place) { return problem }
        }
        return nil
    }

    /// The first unknown key of an app's `retention` rules, their `match` and their actions.
    private static func unknownRetentionKey(in rules: [Any], at place: String) -> String? {
        for (index, rule) in rules.enumerated() {
            guard let rule = rule as? [String: Any] else { continue }
            let rulePlace = "\(place).retention[\(index)]"
            if let problem = unknownKey(of: rule, known: retentionRuleKeys, at: rulePlace) { return problem }
            if let match = rule["match"] as? [String: Any],
                let problem = unknownKey(of: match, known: retentionMatchKeys, at: "\(rulePlace).match")
            {
                return problem
            }
            for action in retentionRuleKeys where action != "match" {
                if let fields = rule[action] as? [String: Any],
                    let problem = unknownKey(of: fields, known: retentionActionKeys, at: "\(rulePlace).\(action)")
                {
                    return problem
                }
            }
        }
        return nil
    }

    private static func unknownKey(of object: [String: Any], known: [String], at place: String) -> String? {
        guard let key = object.keys.sorted().first(where: { !known.contains($0) }) else { return nil }
        let hint = nearest(to: key, among: known).map { "; did you mean \"\($0)\"?" } ?? " (known: \(known.joined(separator: ", ")))"
        return "\(place) has an unknown key \"\(key)\"\(hint)"
    }

    /// The known key closest to `key` by edit distance, when it is close enough to be a slip
    /// (at most a third of the key's length, and at least one edit).
    static func nearest(to key: String, among known: [String]) -> String? {
        var best: (key: String, edits: Int)?
        for candidate in known.sorted() {
            let edits = distance(key.lowercased(), candidate)
            if edits < (best?.edits ?? Int.max) { best = (candidate, edits) }
        }
        guard let best, best.edits <= max(1, key.count / 3) else { return nil }
        return best.key
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// A decoding problem said by its place in the file: `apps[0].app_apple_id must be a
    /// string or a number`, `apps[1] lacks "bundle_id"`, `is not JSON`.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) must be \(expected(type, key: context.codingPath.last?.stringValue))"
        case .keyNotFound(let key, let context):
            return "\(context.codingPath.isEmpty ? "the top level" : path(context.codingPath)) lacks \"\(key.stringValue)\""
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "is not JSON: expected {\"apps\": [{\"bundle_id\": …}]}"
                : "\(path(context.codingPath)) is not valid: \(context.debugDescription)"
        @unknown default:
            return "is not valid"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("") { text, key in
            key.intValue.map { "\(text)[\($0)]" } ?? (text.isEmpty ? key.stringValue : "\(text).\(key.stringValue)")
        }
    }

    private static func expected(_ type: Any.Type, key: String?) -> String {
        if key == ConfigurationFile.App.CodingKeys.appAppleID.rawValue { return "a string or a number" }
        switch type {
        case is String.Type: return "a string"
        case is [Any].Type: return "an array"
        case is UInt64.Type, is Int.Type: return "a number"
        case is Bool.Type: return "true or false"
        default: return "an object"
        }
    }
}
