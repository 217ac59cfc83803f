/// The names keys and console users go by, which logs, metrics and the audit log show: a
/// letter or digit, then up to 63 letters, digits, dots, dashes, underscores and the
/// `extra` characters a kind of principal allows.
public enum PrincipalName {
    public static func isValid(_ name: String, extra: String = "") -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter || first.isNumber, name.count <= 64 else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0) || extra.contains($0)) }
    }
}
