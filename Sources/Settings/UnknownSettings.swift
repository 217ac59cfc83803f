/// Finds variables that look like settings but are none (`WEBHOOK_SECRETT`), which would
/// otherwise be ignored in silence, and names the nearest known setting for each.
public enum UnknownSettings {
    /// The prefixes our settings (and nobody else's) start with: only these are checked, so
    /// `PATH` or `HOME` never draw a warning. `CONSOLE` without its underscore covers `CONSOLE`.
    static let prefixes = ["SUBSCRIPTIOND_", "APPSTORE_", "WEBHOOK_", "CONSOLE"]

    /// Variables with those prefixes that are read, but not as a setting of the service: the
    /// release build's commit stamp and the tests' contract recorder.
    static let readElsewhere: Set<String> = ["SUBSCRIPTIOND_COMMIT", "SUBSCRIPTIOND_CONTRACT_RECORD"]

    /// Every known setting: ``ServiceConfiguration/variables`` and the secrets' `*_FILE` forms.
    public static var known: [String] {
        ServiceConfiguration.variables.map(\.name) + SecretSettings.fileVariables
    }

    /// One warning for each unknown variable of `environment` that has a setting's prefix,
    /// sorted by name: `unknown setting WEBHOOK_SECRETT (did you mean WEBHOOK_SECRET?)`.
    /// Only names are read; values never appear.
    public static func warnings(in environment: [String: String]) -> [String] {
        let known = Self.known
        let table = Set(known).union(readElsewhere)
        return environment.keys.filter { name in
            !table.contains(name) && prefixes.contains { name.hasPrefix($0) }
        }
        .sorted()
        .map { name in
            let nearest = known.min { distance(name, $0) < distance(name, $1) }
            return "unknown setting \(name)" + (nearest.map { " (did you mean \($0)?)" } ?? "")
        }
    }

    /// The Levenshtein distance: insertions, deletions and substitutions that turn `a` into `b`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
