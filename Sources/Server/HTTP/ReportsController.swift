import Access
import ContractDocuments
import Hummingbird
import UseCases

/// `GET /v1/reports/{metric}`: the business's numbers (scope `reports`).
struct ReportsController<Context: PrincipalRequestContext> {
    let reports: Reports

    func addRoutes(to group: RouterGroup<Context>) {
        group.add(.getReport) { request, context in
            let metric = try context.parameters.require("metric")
            var parameters: [String: String] = [:]
            for (name, value) in request.uri.queryParameters {
                let name = String(name)
                guard parameters[name] == nil else { throw APIError.malformed("\(name) is given twice") }
                parameters[name] = String(value)
            }
            let answer = try await reports.answer(metric: metric, parameters: parameters, apps: try context.requirePrincipal().apps)
            return try JSONResponse(document: ReportDocument(answer: answer, currency: reports.currency))
        }
    }
}
