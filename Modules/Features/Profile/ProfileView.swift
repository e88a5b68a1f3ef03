import HeadlessUI
import Layout
import TerminalCore

/// Profile's rows, placed by their frames: the name, the bio and a line at the top, the buttons
/// at the bottom, and the photo in all the rows between, whatever its own size would be.
///
/// A small window never shows a part of something: a photo with fewer than
/// ``minimumPictureRows`` rows of picture gives way to its caption and a line saying that a
/// taller window shows it, and a button that does not fit whole is left out (its key still
/// works, and the help bar names it), as is the favourites count when fewer than
/// ``minimumCountWidth`` columns are left for it.
///
/// While the favourites are browsed, they are listed at the left of the photo, one breed a row,
/// the one drawn marked; the list scrolls to keep it in sight, and is left out of a window
/// narrower than ``minimumListedWidth``. A click on a row selects that favourite
/// (``onSelectFavorite``).
@MainActor
final class ProfileView: View, MouseResponder {
    /// The list of favourites takes a third of the width at most, so needs this much to be shown.
    static let minimumListedWidth = 48.0
    /// Fewer rows of half blocks than this are a smear, not a photo.
    static let minimumPictureRows = 3
    /// The favourites count is truncated down to this width, then left out.
    static let minimumCountWidth = 10
    private static let buttonSpacing = 2.0

    private let name: Label
    private let bio: Label
    private let separator = Separator()
    private let image: ImageView
    /// The photo's caption alone, for a window too short for the picture.
    private let caption = Label()
    private let tooShort = Label("A taller window shows the photo.")
    private let buttons: [Button]
    private let count: Label
    /// One label for each favourite row in sight, reused from one layout to the next.
    private var favoriteRows: [Label] = []
    private var favorites: [String] = []
    private var selectedFavorite: Int?
    /// The favourites listed, by index, and the cells of their rows, from the last layout.
    private var listed: (indices: Range<Int>, frame: Rect) = (0..<0, .zero)
    /// Called with a favourite's index when its row is clicked.
    var onSelectFavorite: @MainActor (Int) -> Void = { _ in }

    init(name: Label, bio: Label, image: ImageView, buttons: [Button], count: Label) {
        self.name = name
        self.bio = bio
        self.image = image
        self.buttons = buttons
        self.count = count
        super.init(frame: .zero)
        caption.textAlignment = .center
        caption.textStyle = image.captionStyle
        tooShort.textAlignment = .center
        tooShort.textStyle = TextStyle(isDim: true)
        for subview in [name, bio, separator, image, caption, tooShort] { addSubview(subview) }
        for button in buttons { addSubview(button) }
        addSubview(count)
    }

    /// Lists `breeds` beside the photo with `selected` marked, or, with none, no list.
    func showFavorites(_ breeds: [String], selected: Int?) {
        favorites = breeds
        selectedFavorite = selected
        setNeedsLayout()
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        let width = frame.width
        let inner = max(0, width - 2)
        let height = frame.height
        name.frame = Rect(x: 1, y: 0, width: inner, height: 1)
        bio.frame = Rect(x: 1, y: 1, width: inner, height: 1)
        separator.frame = Rect(x: 0, y: 2, width: width, height: 1)
        let buttonRow = max(3, height - 1)
        let photoRows = buttonRow - 3
        // One row is the caption's.
        let picture = photoRows - 1 >= Double(Self.minimumPictureRows)
        image.isHidden = !picture
        caption.isHidden = picture || photoRows < 1
        tooShort.isHidden = picture || photoRows < 2
        let listWidth = layOutFavorites(rows: Int(photoRows), width: inner)
        let photoX: Double = listWidth > 0 ? listWidth + 2 : 1
        let photoWidth = max(0, inner - (photoX - 1))
        if picture {
            image.frame = Rect(x: photoX, y: 3, width: photoWidth, height: photoRows)
        } else {
            caption.text = image.caption ?? ""
            caption.frame = Rect(x: photoX, y: 3, width: photoWidth, height: 1)
            tooShort.frame = Rect(x: photoX, y: 4, width: photoWidth, height: 1)
        }
        layOutButtons(y: buttonRow, width: inner)
    }

    /// The favourites in sight, from the top of the photo's rows down; returns the list's width
    /// (0 when it is not shown).
    private func layOutFavorites(rows: Int, width: Double) -> Double {
        let shown = !favorites.isEmpty && rows > 0 && width >= Self.minimumListedWidth
        let selected = min(max(selectedFavorite ?? 0, 0), max(favorites.count - 1, 0))
        let visible = shown ? min(rows, favorites.count) : 0
        // The selection in the middle when it can be, and never a blank row after the last.
        let first = max(0, min(selected - visible / 2, favorites.count - visible))
        let texts = (first..<first + visible).map { index in
            "\(index == selected ? "›" : " ") \(index + 1). \(favorites[index])"
        }
        let listWidth = min((width / 3).rounded(.down), Double(texts.map(\.terminalWidth).max() ?? 0))
        while favoriteRows.count < visible {
            let row = Label()
            favoriteRows.append(row)
            addSubview(row)
        }
        for (offset, row) in favoriteRows.enumerated() {
            row.isHidden = offset >= visible
            guard offset < visible else { continue }
            row.text = texts[offset]
            row.isHighlighted = first + offset == selected
            row.frame = Rect(x: 1, y: 3 + Double(offset), width: listWidth, height: 1)
        }
        listed = (
            first..<first + visible, Rect(x: 1, y: 3, width: shown ? listWidth : 0, height: Double(visible))
        )
        return shown ? listWidth : 0
    }

    /// A left click on a listed favourite selects it.
    func handleMouse(_ event: MouseEvent, at point: Canvas.Position) -> Bool {
        guard case .press(.left) = event.kind,
            listed.frame.contains(Point(x: Double(point.x), y: Double(point.y)))
        else { return false }
        onSelectFavorite(listed.indices.lowerBound + point.y - Int(listed.frame.minY))
        return true
    }

    /// Left to right, each button whole; the first that does not fit and every one after it are
    /// left out, then the count takes what is left.
    private func layOutButtons(y: Double, width: Double) {
        var x = 1.0
        var fits = true
        for button in buttons {
            let size = button.intrinsicContentSize.width
            fits = fits && x - 1 + size <= width
            button.isHidden = !fits
            guard fits else { continue }
            button.frame = Rect(x: x, y: y, width: size, height: 1)
            x += size + Self.buttonSpacing
        }
        let room = min(count.intrinsicContentSize.width, width - (x - 1))
        count.isHidden = !fits || room < Double(Self.minimumCountWidth)
        count.frame = Rect(x: x, y: y, width: max(0, room), height: 1)
    }
}
