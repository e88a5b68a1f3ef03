import Layout
import TerminalCore

/// A scrolling list of rows from a data source, as `UITableView` with one section.
///
/// ```swift
/// let table = TableView()
/// table.dataSource = self          // numberOfRows(in:), tableView(_:cellForRowAt:)
/// table.delegate = self            // tableView(_:didSelectRowAt:)
/// table.scrollToRow(at: 9_999)
/// ```
///
/// Only the rows on screen have cells: after a scroll the table asks its data source for the
/// visible rows, handing each screen slot's cell back for reuse, and places cells with frames. A
/// table of 10,000 rows costs the same to draw as one of 20. ``contentOffset`` is the first visible
/// row; when rows do not all fit, a scroll indicator takes the last column.
///
/// With focus, Up and Down move the selection (Page Up, Page Down, Home and End by pages and
/// to the ends) and Enter taps the selected row. A click taps the row under it; the wheel
/// scrolls three rows a notch.
open class TableView: View, Drawable, Focusable, MouseResponder {
    /// Where ``scrollToRow(at:at:)`` puts a row, as `UITableView.ScrollPosition`.
    public enum ScrollPosition: Sendable, Hashable {
        /// Scroll as little as makes the row visible.
        case none
        /// The row at the top.
        case top
        /// The row in the middle.
        case middle
        /// The row at the bottom.
        case bottom
    }

    /// Supplies the rows. The table holds it weakly.
    public weak var dataSource: (any TableViewDataSource)? {
        didSet { reloadData() }
    }
    /// Hears selection and scrolling. The table holds it weakly.
    public weak var delegate: (any TableViewDelegate)?
    /// Each row's height in cells (at least 1).
    public var rowHeight = 1 {
        didSet { if rowHeight != oldValue { setNeedsLayout() } }
    }
    /// Whether the last column shows where the visible rows are when not all fit.
    public var showsScrollIndicator = true
    /// The selected row, if any.
    public private(set) var selectedRow: Int?

    /// The first visible row. Setting it scrolls, clamped so that the last page stays full.
    public var contentOffset: Int {
        get { offset }
        set {
            let clamped = min(max(0, newValue), maximumOffset)
            guard clamped != offset else { return }
            offset = clamped
            setNeedsLayout()
            delegate?.tableViewDidScroll(self)
        }
    }

    /// The number of rows, as of the last ``reloadData()``.
    public private(set) var numberOfRows = 0

    private var offset = 0
    private var needsReload = true
    /// The rows the visible cells were configured for.
    private var configuredRows = 0..<0
    /// The visible cells, top to bottom.
    private var slotCells: [TableViewCell] = []
    private var cellClasses: [String: TableViewCell.Type] = [:]
    private var reusePool: [String: [TableViewCell]] = [:]
    /// The cells on screen, by row.
    private var visibleCellsByRow: [Int: TableViewCell] = [:]

    /// Creates an empty table.
    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
    }

    // MARK: Cells

    /// Makes ``dequeueReusableCell(withIdentifier:)`` create `cellClass` cells for `identifier`.
    public func register(_ cellClass: TableViewCell.Type, forCellReuseIdentifier identifier: String) {
        cellClasses[identifier] = cellClass
    }

    /// A cell for `identifier`: one that scrolled away, prepared for reuse, or a new one of the
    /// registered class (a plain ``TableViewCell`` when none is registered).
    public func dequeueReusableCell(withIdentifier identifier: String) -> TableViewCell {
        if let cell = reusePool[identifier]?.popLast() {
            cell.prepareForReuse()
            return cell
        }
        return (cellClasses[identifier] ?? TableViewCell.self).init(reuseIdentifier: identifier)
    }

    /// The cells on screen, top to bottom.
    public var visibleCells: [TableViewCell] { slotCells }

    /// The rows on screen, as of the last layout.
    public var visibleRows: Range<Int> {
        let first = min(offset, numberOfRows)
        return first..<min(numberOfRows, first + rowsPerPage)
    }

    /// The cell showing `row`, if it is on screen.
    public func cellForRow(at row: Int) -> TableViewCell? { visibleCellsByRow[row] }

    /// Asks the data source again for the number of rows and the visible cells.
    public func reloadData() {
        numberOfRows = max(0, dataSource?.numberOfRows(in: self) ?? 0)
        if let selectedRow, selectedRow >= numberOfRows { self.selectedRow = nil }
        offset = min(offset, maximumOffset)
        needsReload = true
        setNeedsLayout()
    }

    // MARK: Scrolling and selection

    /// How many rows fit on screen.
    public var rowsPerPage: Int { max(0, Renderer.cells(frame.height) / max(1, rowHeight)) }

    private var maximumOffset: Int { max(0, numberOfRows - max(1, rowsPerPage)) }

    /// Scrolls so that `row` is on screen, placed as `position` says.
    public func scrollToRow(at row: Int, at position: ScrollPosition = .none) {
        guard numberOfRows > 0 else { return }
        let row = min(max(0, row), numberOfRows - 1)
        let page = max(1, rowsPerPage)
        switch position {
        case .top: contentOffset = row
        case .middle: contentOffset = row - page / 2
        case .bottom: contentOffset = row - page + 1
        case .none:
            if row < offset {
                contentOffset = row
            } else if row >= offset + page {
                contentOffset = row - page + 1
            }
        }
    }

    /// Selects `row` (or clears the selection with `nil`) and scrolls to it. The delegate is not
    /// told, as in UIKit.
    public func selectRow(at row: Int?, scrollPosition: ScrollPosition = .none) {
        guard let row, row >= 0, row < numberOfRows else {
            selectedRow = nil
            updateSelection()
            return
        }
        selectedRow = row
        scrollToRow(at: row, at: scrollPosition)
        updateSelection()
    }

    /// What a tap on `row` does: selects it and tells the delegate. Returns `false` for a row
    /// that does not exist.
    @discardableResult
    package func tapRow(at row: Int) -> Bool {
        guard row >= 0, row < numberOfRows else { return false }
        selectRow(at: row)
        delegate?.tableView(self, didSelectRowAt: row)
        return true
    }

    // MARK: Keys and mouse

    /// Whether the table has rows and is shown.
    public var canBecomeFocused: Bool { numberOfRows > 0 && !isHidden }

    /// Moves the selection with the arrows, Page Up/Down and Home/End; Enter taps the
    /// selected row.
    open func handleKey(_ press: KeyPress) -> Bool {
        guard press.modifiers.isEmpty, numberOfRows > 0 else { return false }
        let page = max(1, rowsPerPage)
        let current = selectedRow
        let target: Int
        switch press.key {
        case .up: target = (current ?? offset + 1) - 1
        case .down: target = current.map { $0 + 1 } ?? offset
        case .pageUp: target = (current ?? offset) - page
        case .pageDown: target = (current ?? offset) + page
        case .home: target = 0
        case .end: target = numberOfRows - 1
        case .enter:
            guard let current else { return false }
            return tapRow(at: current)
        default: return false
        }
        selectRow(at: min(max(0, target), numberOfRows - 1))
        return true
    }

    /// A left click taps the row under it; the wheel scrolls three rows a notch.
    open func handleMouse(_ event: MouseEvent, at point: Canvas.Position) -> Bool {
        switch event.kind {
        case .scrollUp:
            contentOffset -= 3
            return true
        case .scrollDown:
            contentOffset += 3
            return true
        case .press(.left):
            let row = offset + point.y / max(1, rowHeight)
            guard point.y < rowsPerPage * max(1, rowHeight), row < numberOfRows else { return false }
            return tapRow(at: row)
        default:
            return false
        }
    }

    private func updateSelection() {
        for (row, cell) in visibleCellsByRow { cell.isSelected = row == selectedRow }
    }

    // MARK: Layout and drawing

    private var scrollIndicatorWidth: Double {
        showsScrollIndicator && numberOfRows > rowsPerPage ? 1 : 0
    }

    /// Materialises the visible rows: when the visible rows changed (a scroll) or after
    /// ``reloadData()``, the data source configures each visible row's cell. Cells go back to the
    /// pool so that each screen slot gets its own cell again: a scroll changes text, not frames,
    /// and costs the layout solver nothing. Spare cells stay as hidden subviews, since removing
    /// views would make the solver rebuild.
    open override func layoutSubviews() {
        super.layoutSubviews()
        offset = min(offset, maximumOffset)
        let rows = visibleRows
        let width = max(0, frame.width - scrollIndicatorWidth)
        if needsReload || rows != configuredRows, let dataSource {
            needsReload = false
            configuredRows = rows
            for cell in slotCells.reversed() {
                reusePool[cell.reuseIdentifier ?? "", default: []].append(cell)
            }
            slotCells = []
            visibleCellsByRow = [:]
            for row in rows {
                let cell = dataSource.tableView(self, cellForRowAt: row)
                cell.setNeedsLayout()
                cell.isHidden = false
                if cell.superview !== self { addSubview(cell) }
                slotCells.append(cell)
                visibleCellsByRow[row] = cell
            }
            for cell in reusePool.values.joined() where cell.superview === self { cell.isHidden = true }
        }
        for (slot, cell) in slotCells.enumerated() {
            cell.isSelected = offset + slot == selectedRow
            cell.frame = Rect(x: 0, y: Double(slot * rowHeight), width: width, height: Double(rowHeight))
        }
    }

    /// Draws the scroll indicator.
    open func draw(in context: inout DrawingContext) {
        guard scrollIndicatorWidth > 0, context.height > 0, numberOfRows > 0 else { return }
        let x = context.width - 1
        let track = context.height
        let thumb = max(1, track * track / max(1, numberOfRows * rowHeight))
        let start = min(track - thumb, (track - thumb) * offset / max(1, maximumOffset))
        context.drawVerticalLine(x: x, style: TextStyle(isDim: true))
        context.fill(x: x, y: start, width: 1, height: thumb, with: "┃")
    }
}
