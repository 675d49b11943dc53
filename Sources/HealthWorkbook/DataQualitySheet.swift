import HealthStore

/// The workbook's Data quality sheet (docs/data-quality.md): one row per day, its wear and
/// validity, and how our steps and active energy compare with every source's sum and the rings,
/// with the exact copies dropped of each.
extension HealthWorkbook {
    static let dataQualitySheet: (title: String, table: OutputTable) = ("Data quality", .qualityWithReconciliation)
}
