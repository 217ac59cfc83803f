import CatalogFiles
import Foundation
import Testing

@Suite("Customer import file: header, quoted fields, line numbers")
struct CustomerImportFileTests {
    private func rows(_ text: String) throws -> [CustomerImportRow] {
        try CustomerImportFile.parse(text).get()
    }

    private func unusable(_ text: String) -> String? {
        if case .failure(let unusable) = CustomerImportFile.parse(text) { return unusable.description }
        return nil
    }

    @Test("an export's other columns are ignored; a row takes the first evidence it fills; lines count from the header")
    func readsAnExport() throws {
        let text = """
            \u{FEFF}App_User_ID,country,original_transaction_id,transaction_id
            user-1,US,1000000000000001,
            "user, with comma",DE,,2000000000000002

            user-3,FR,3000000000000003,3000000000000009
            """
        #expect(
            try rows(text) == [
                CustomerImportRow(line: 2, appUserID: "user-1", content: .originalTransactionID("1000000000000001")),
                CustomerImportRow(line: 3, appUserID: "user, with comma", content: .transactionID("2000000000000002")),
                CustomerImportRow(line: 5, appUserID: "user-3", content: .transactionID("3000000000000009")),
            ])
    }

    @Test("a receipt over several lines in quotes is one row; the next row's line number counts them")
    func multiLineReceipt() throws {
        let receipt = Data("a receipt".utf8).base64EncodedString()
        let text = "app_user_id,receipt_data\nuser-1,\"\(receipt.prefix(4))\n\(receipt.dropFirst(4))\"\nuser-2,\(receipt)\r\n"
        #expect(
            try rows(text) == [
                CustomerImportRow(line: 2, appUserID: "user-1", content: .receipt(receipt)),
                CustomerImportRow(line: 4, appUserID: "user-2", content: .receipt(receipt)),
            ])
    }

    @Test("bad rows are refused with their line and reason; the others stay")
    func badRows() throws {
        let text = """
            app_user_id,transaction_id,receipt_data
            ,1000000000000001,
            user-2,,
            user-3,12ab,
            user-4,1000000000000004
            user-5,,not base64!
            user-6,1000000000000006,
            """
        let read = try rows(text)
        #expect(read.map(\.line) == [2, 3, 4, 5, 6, 7])
        #expect(
            read.map(\.content).prefix(5) == [
                .refused("app_user_id is empty"),
                .refused("no transaction_id, receipt_data given"),
                .refused("transaction_id \"12ab\" is not an App Store transaction id (digits)"),
                .refused("expected 3 fields as in the header, found 2"),
                .refused("receipt_data is not base64"),
            ])
        #expect(read.last == CustomerImportRow(line: 7, appUserID: "user-6", content: .transactionID("1000000000000006")))
    }

    @Test("a missing column, a repeated one, an unclosed quote or an empty file make the file unusable, in one line")
    func unusableFiles() {
        #expect(unusable("") == "the file is empty: expected a header such as app_user_id,transaction_id")
        #expect(unusable("user,transaction_id\nu,1\n")?.hasPrefix("line 1: the header has no app_user_id column") == true)
        #expect(
            unusable("app_user_id,country\nu,US\n")
                == "line 1: the header needs a transaction_id, original_transaction_id or receipt_data column beside app_user_id")
        #expect(unusable("app_user_id,transaction_id,Transaction_ID\n") == "line 1: the header names transaction_id twice")
        #expect(unusable("app_user_id,transaction_id\nu,1\n\"v,2\n") == "line 3: a quoted field is never closed")
    }
}
