import HeadlessUI
import Layout
import Testing

@MainActor
final class NumberRows: TableViewDataSource, TableViewDelegate {
    var count: Int
    var requestedRows: [Int] = []
    var selected: [Int] = []

    init(count: Int) { self.count = count }

    func numberOfRows(in tableView: TableView) -> Int { count }

    func tableView(_ tableView: TableView, cellForRowAt row: Int) -> TableViewCell {
        requestedRows.append(row)
        let cell = tableView.dequeueReusableCell(withIdentifier: "number")
        cell.textLabel.text = "Row \(row)"
        cell.detailTextLabel.text = row.isMultiple(of: 2) ? "even" : "odd"
        cell.accessoryType = row == 0 ? .checkmark : .none
        return cell
    }

    func tableView(_ tableView: TableView, didSelectRowAt row: Int) { selected.append(row) }
}

@MainActor
@Suite("TableView materialises only visible rows")
struct TableViewTests {
    private func makeTable(rows: Int, height: Double = 10) -> (TableView, NumberRows, View) {
        let root = View(frame: Rect(x: 0, y: 0, width: 30, height: height))
        let table = TableView(frame: root.bounds)
        let source = NumberRows(count: rows)
        root.addSubview(table)
        table.dataSource = source
        table.delegate = source
        return (table, source, root)
    }

    @Test func tenThousandRowsMakeOnlyAScreenfulOfCells() {
        let (table, source, root) = makeTable(rows: 10_000)
        let lines = Renderer.render(root).lines
        #expect(table.visibleRows == 0..<10)
        #expect(source.requestedRows == Array(0..<10))
        #expect(table.subviews.count == 10)
        #expect(lines[0] == " Row 0                 even ✓┃")
        #expect(lines[9] == " Row 9                   odd │")
    }

    @Test func scrollingReusesCellsAndAsksOnlyForTheVisibleRows() {
        let (table, source, root) = makeTable(rows: 10_000)
        root.layoutIfNeeded()
        let cells = Set(table.visibleCells.map(ObjectIdentifier.init))
        source.requestedRows = []
        table.scrollToRow(at: 9_999)
        let lines = Renderer.render(root).lines
        #expect(table.contentOffset == 9_990)
        #expect(source.requestedRows == Array(9_990..<10_000))
        #expect(Set(table.visibleCells.map(ObjectIdentifier.init)) == cells)  // reused, none made
        #expect(lines[9] == " Row 9999                odd ┃")
    }

    @Test func theOffsetIsClampedSoTheLastPageStaysFull() {
        let (table, _, root) = makeTable(rows: 25)
        root.layoutIfNeeded()
        table.contentOffset = 100
        #expect(table.contentOffset == 15)
        table.contentOffset = -3
        #expect(table.contentOffset == 0)
    }

    @Test func scrollPositionsPlaceTheRow() {
        let (table, _, root) = makeTable(rows: 100)
        root.layoutIfNeeded()
        table.scrollToRow(at: 50, at: .top)
        #expect(table.contentOffset == 50)
        table.scrollToRow(at: 50, at: .middle)
        #expect(table.contentOffset == 45)
        table.scrollToRow(at: 50, at: .bottom)
        #expect(table.contentOffset == 41)
        table.scrollToRow(at: 45)  // already visible: no scroll
        #expect(table.contentOffset == 41)
    }

    @Test func aTapSelectsTheRowAndTellsTheDelegateButSelectingInCodeDoesNot() {
        let (table, source, root) = makeTable(rows: 5)
        root.layoutIfNeeded()
        table.selectRow(at: 1)
        #expect(source.selected.isEmpty)
        #expect(table.tapRow(at: 3))
        #expect(!table.tapRow(at: 5))
        #expect(source.selected == [3])
        #expect(table.selectedRow == 3)
        root.layoutIfNeeded()
        #expect(table.cellForRow(at: 3)?.isSelected == true)
        #expect(table.cellForRow(at: 1)?.isSelected == false)
    }

    @Test func reloadDataPicksUpFewerRowsAndDropsASelectionPastTheEnd() {
        let (table, source, root) = makeTable(rows: 30)
        root.layoutIfNeeded()
        table.selectRow(at: 20, scrollPosition: .top)
        source.count = 3
        table.reloadData()
        root.layoutIfNeeded()
        #expect(table.selectedRow == nil)
        #expect(table.contentOffset == 0)
        #expect(table.visibleCells.count == 3)
        #expect(table.subviews.filter { !$0.isHidden }.count == 3)  // spare cells wait hidden
    }

    @Test func aCellThatFitsShowsNoScrollIndicator() {
        let (_, source, root) = makeTable(rows: 3)
        // The table holds its data source weakly, as UIKit does.
        let lines = withExtendedLifetime(source) { Renderer.render(root).lines }
        #expect(lines[1] == " Row 1                    odd")
    }
}
