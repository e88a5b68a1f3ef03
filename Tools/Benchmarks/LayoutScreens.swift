import Layout
import LayoutDSL

/// The screens `bench layout` lays out: built with views and the `ndl` DSL, shaped like real
/// screens (each view constrained to its superview and its near siblings), at any size.
///
/// - A list: rows stacked under each other, each row an icon, a title and a detail. Titles and
///   details have intrinsic sizes with hugging and compression resistance; the detail keeps at
///   least one cell from the title; rows are 2 high. Four views per row.
/// - A grid: rows of ten cards of equal width that share the screen's width, each card with a
///   caption that prefers (medium) to be half the card's width. Two views per card.
///
/// Both have required, high (750), medium and low (250) constraints.
@MainActor
enum LayoutScreen {
    static func list(views: Int, size: Size) throws -> View {
        let root = View(frame: Rect(origin: .zero, size: size))
        var previous: View?
        for index in 0..<max(1, views / 4) {
            let row = View()
            let icon = View()
            let title = BenchLabel(width: 12 + Double(index % 7))
            let detail = BenchLabel(width: 6)
            root.addSubview(row)
            for view in [icon, title, detail] { row.addSubview(view) }
            title.setContentHuggingPriority(.defaultLow - 1, for: .horizontal)
            try row.ndl.makeConstraints { make in
                make.leading.trailing.equalToSuperview()
                make.height.equalTo(2)
                if let previous { make.top.equalTo(previous.ndl.bottom) } else { make.top.equalToSuperview() }
            }
            try icon.ndl.makeConstraints { make in
                make.leading.equalToSuperview().offset(1)
                make.centerY.equalToSuperview()
                make.size.equalTo(Size(width: 2, height: 1))
            }
            try title.ndl.makeConstraints { make in
                make.leading.equalTo(icon.ndl.trailing).offset(1)
                make.centerY.equalToSuperview()
            }
            try detail.ndl.makeConstraints { make in
                make.leading.greaterThanOrEqualTo(title.ndl.trailing).offset(1)
                make.trailing.equalToSuperview().inset(1)
                make.centerY.equalToSuperview()
            }
            previous = row
        }
        return root
    }

    static func grid(views: Int, size: Size) throws -> View {
        let columns = 10
        let root = View(frame: Rect(origin: .zero, size: size))
        var previousRow: View?
        for _ in 0..<max(1, views / (2 * columns)) {
            let row = View()
            root.addSubview(row)
            try row.ndl.makeConstraints { make in
                make.leading.trailing.equalToSuperview()
                make.height.equalTo(4)
                if let previousRow {
                    make.top.equalTo(previousRow.ndl.bottom).offset(1)
                } else {
                    make.top.equalToSuperview()
                }
            }
            var previousCard: View?
            for column in 0..<columns {
                let card = View()
                let caption = BenchLabel(width: 5)
                row.addSubview(card)
                card.addSubview(caption)
                try card.ndl.makeConstraints { make in
                    make.top.bottom.equalToSuperview()
                    if let previousCard {
                        make.leading.equalTo(previousCard.ndl.trailing).offset(1)
                        make.width.equalTo(previousCard)
                    } else {
                        make.leading.equalToSuperview().offset(1)
                    }
                    if column == columns - 1 { make.trailing.equalToSuperview().inset(1) }
                }
                try caption.ndl.makeConstraints { make in
                    make.center.equalToSuperview()
                    make.width.equalToSuperview().multipliedBy(0.5).priority(.medium)
                    make.width.lessThanOrEqualToSuperview()
                }
                previousCard = card
            }
            previousRow = row
        }
        return root
    }
}

/// A one-line label's stand-in: an intrinsic size and nothing else.
@MainActor
final class BenchLabel: View {
    private let width: Double

    init(width: Double) {
        self.width = width
        super.init()
    }

    override var intrinsicContentSize: Size { Size(width: width, height: 1) }
}
