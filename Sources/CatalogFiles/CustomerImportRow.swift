/// One line of an import file: an app user and what names their purchase to Apple, or why
/// the line cannot be imported.
public struct CustomerImportRow: Sendable, Equatable {
    /// What the line holds.
    public enum Content: Sendable, Equatable {
        /// A transaction id, looked up with the App Store Server API.
        case transactionID(String)
        /// An original transaction id, looked up the same way.
        case originalTransactionID(String)
        /// A base64 app receipt (whitespace removed), verified as `POST /v1/receipts` does.
        case receipt(String)
        /// The line is refused before anything is asked: why.
        case refused(String)

        /// The transaction id the line names, if it names one.
        public var transactionID: String? {
            switch self {
            case .transactionID(let id), .originalTransactionID(let id): id
            case .receipt, .refused: nil
            }
        }
    }

    /// The file line the row starts on (1-based; the header is line 1).
    public let line: Int
    /// The app user to link the purchase to (empty on a refused line that has none).
    public let appUserID: String
    /// The line's evidence, or its refusal.
    public let content: Content

    /// A row of `line` for `appUserID`.
    public init(line: Int, appUserID: String, content: Content) {
        self.line = line
        self.appUserID = appUserID
        self.content = content
    }

    /// A line refused for `reason`.
    static func refused(line: Int, _ reason: String) -> CustomerImportRow {
        CustomerImportRow(line: line, appUserID: "", content: .refused(reason))
    }
}
