import Layout
import TerminalCore

/// One row of a ``TableView``, as `UITableViewCell` in its `.value1` style: a title on the
/// leading side, a detail on the trailing side, and an optional accessory.
///
/// Cells are reused: a table hands a cell that scrolled away to the data source again, after
/// ``prepareForReuse()``. Subclasses add their own views to ``contentView``.
///
/// A cell lays out its labels with frames, not constraints, so that scrolling costs the solver
/// nothing.
open class TableViewCell: View, Drawable {
    /// A mark at the trailing edge, as `UITableViewCell.AccessoryType`.
    public enum AccessoryType: Sendable, Hashable {
        /// No mark.
        case none
        /// `✓`
        case checkmark
        /// `›`, for a row that leads somewhere.
        case disclosureIndicator
    }

    /// The identifier the cell was registered and dequeued with.
    public let reuseIdentifier: String?
    /// The view that holds the cell's content: everything but the accessory.
    public let contentView = View()
    /// The title, on the leading side.
    public let textLabel = Label()
    /// The detail, on the trailing side, dimmed.
    public let detailTextLabel = Label()
    /// The trailing mark.
    public var accessoryType = AccessoryType.none {
        didSet { if accessoryType != oldValue { setNeedsLayout() } }
    }
    /// Whether the row is selected; a selected row is drawn inverted.
    public var isSelected = false {
        didSet {
            textLabel.isHighlighted = isSelected
            detailTextLabel.isHighlighted = isSelected
        }
    }

    /// Creates a cell for reuse under `reuseIdentifier`.
    public required init(reuseIdentifier: String?) {
        self.reuseIdentifier = reuseIdentifier
        super.init(frame: .zero)
        detailTextLabel.textStyle = TextStyle(isDim: true)
        detailTextLabel.textAlignment = .right
        addSubview(contentView)
        contentView.addSubview(textLabel)
        contentView.addSubview(detailTextLabel)
    }

    /// Clears the cell before the table hands it out again. Subclasses call `super`.
    open func prepareForReuse() {
        textLabel.text = ""
        detailTextLabel.text = ""
        accessoryType = .none
        isSelected = false
    }

    private var accessoryWidth: Double { accessoryType == .none ? 0 : 1 }

    /// Places the content view and the labels: one cell of padding on each side, the detail as
    /// wide as its text, the title in what is left.
    open override func layoutSubviews() {
        super.layoutSubviews()
        let size = frame.size
        contentView.frame = Rect(x: 0, y: 0, width: max(0, size.width - accessoryWidth), height: size.height)
        let inner = max(0, contentView.frame.width - 2)
        let detailWidth = min(inner, Double(detailTextLabel.text.terminalWidth))
        let gap = detailWidth > 0 ? 1.0 : 0
        textLabel.frame = Rect(
            x: 1, y: 0, width: max(0, inner - detailWidth - gap), height: min(1, size.height))
        detailTextLabel.frame = Rect(
            x: 1 + inner - detailWidth, y: 0, width: detailWidth, height: min(1, size.height))
    }

    /// Draws the selection and the accessory; the labels draw themselves.
    open func draw(in context: inout DrawingContext) {
        if isSelected { context.fill(style: TextStyle(isInverse: true)) }
        switch accessoryType {
        case .none: break
        case .checkmark: context.draw("✓", x: context.width - 1, y: 0, style: TextStyle(foreground: .green))
        case .disclosureIndicator:
            context.draw("›", x: context.width - 1, y: 0, style: TextStyle(isDim: true))
        }
    }
}
