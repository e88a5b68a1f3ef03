import HeadlessUI
import Layout
import LayoutDSL
import Testing

@MainActor
@Suite("Widgets: intrinsic sizes and drawing")
struct WidgetTests {
    /// Lays `view` out alone at its intrinsic size (or `width` wide) and draws it.
    private func draw(_ view: View, width: Double? = nil) throws -> [String] {
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))
        root.addSubview(view)
        try view.ndl.makeConstraints { make in
            make.top.leading.equalToSuperview()
            if let width { make.width.equalTo(width) }
        }
        return Renderer.render(root).lines.filter { !$0.isEmpty }
    }

    @Test func aSingleLineLabelIsAsWideAsItsTextInCells() {
        #expect(Label("할 일").intrinsicContentSize == Size(width: 5, height: 1))
        #expect(Label("").intrinsicContentSize == .zero)
    }

    @Test func aMultiLineLabelWrapsAtItsWidthAndGrowsTaller() throws {
        let label = Label("one two three four five six")
        label.numberOfLines = 0
        #expect(try draw(label, width: 10) == ["one two", "three four", "five six"])
        #expect(label.frame.size == Size(width: 10, height: 3))
    }

    /// A label whose width its constraints fix keeps that width when its text changes, so no
    /// size change calls its layoutSubviews: the new text must be wrapped all the same.
    @Test func aPinnedMultiLineLabelWrapsTextThatGrowsAfterItsFirstLayout() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))
        let label = Label("short")
        label.numberOfLines = 0
        root.addSubview(label)
        try label.ndl.makeConstraints { make in
            make.top.leading.equalToSuperview()
            make.width.equalTo(10)
        }
        func lines() -> [String] { Renderer.render(root).lines.filter { !$0.isEmpty } }
        #expect(lines() == ["short"])
        label.text = "one two three four five six"
        #expect(lines() == ["one two", "three four", "five six"])
        #expect(label.frame.size == Size(width: 10, height: 3))
        label.text = "short again"
        #expect(lines() == ["short", "again"])
        label.text = "short"
        #expect(lines() == ["short"])
        #expect(label.frame.size == Size(width: 10, height: 1))
    }

    @Test func aLineLimitTruncatesTheLastLine() throws {
        let label = Label("one two three four five six")
        label.numberOfLines = 2
        #expect(try draw(label, width: 10) == ["one two", "three fou…"])
    }

    @Test func alignmentPlacesEachLine() throws {
        let label = Label("ab")
        label.textAlignment = .right
        #expect(try draw(label, width: 6) == ["    ab"])
        label.textAlignment = .center
        #expect(Renderer.render(label.rootView).lines[0] == "  ab")
    }

    @Test func naturalAlignmentFollowsTheLayoutDirection() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 20, height: 1))
        root.semanticLayoutDirection = .rightToLeft
        let label = Label("ab")
        root.addSubview(label)
        try label.ndl.makeConstraints { make in
            make.top.leading.equalToSuperview()
            make.width.equalTo(6)
        }
        // Leading is the right edge: the label sits at the right of the root, its text against
        // the label's right edge.
        #expect(Renderer.render(root).lines == [String(repeating: " ", count: 18) + "ab"])
    }

    @Test func aButtonDrawsItsTitleInBracketsAndIgnoresTapsWhenDisabled() throws {
        var taps = 0
        let button = Button(title: "저장") { taps += 1 }
        #expect(button.intrinsicContentSize == Size(width: 8, height: 1))
        #expect(try draw(button) == ["[ 저장 ]"])
        #expect(button.tap())
        button.isEnabled = false
        #expect(!button.tap())
        #expect(taps == 1)
    }

    @Test func aTextFieldShowsItsPlaceholderUntilItHasText() throws {
        let field = TextField(placeholder: "Title")
        var changes: [String] = []
        field.onTextChange = { changes.append($0) }
        #expect(try draw(field, width: 12) == ["[Title     ]"])
        field.text = "Buy milk"
        #expect(Renderer.render(field.rootView).lines[0] == "[Buy milk  ]")
        #expect(changes == ["Buy milk"])
    }

    @Test func anImageViewKeepsThePicturesAspectRatio() throws {
        let image = ImageView(
            image: Image(
                url: "https://images.dog.ceo/breeds/shiba/shiba-1.jpg",
                pixelSize: Size(width: 800, height: 600)),
            caption: "Shiba")
        // 24 cells wide; 600/800 of that, halved because cells are tall, is 9 rows.
        #expect(image.intrinsicContentSize == Size(width: 24, height: 9))
        let lines = try draw(image)
        #expect(lines.count == 9)
        #expect(lines[0] == "╭──────────────────────╮")
        #expect(lines.contains("│        Shiba         │"))
        #expect(lines.contains("│     800 × 600 px     │"))
        #expect(lines.contains("│ https://im…iba-1.jpg │"), "\(lines)")
    }

    @Test func aBoxDrawsItsBorderAndTitleAroundItsContent() throws {
        let box = BoxView(title: "Box", border: .double)
        let label = Label("inside")
        box.contentView.addSubview(label)
        try label.ndl.makeConstraints { make in make.edges.equalToSuperview() }
        let lines = try draw(box)
        #expect(lines == ["╔═ Box ╗", "║inside║", "╚══════╝"], "\(lines)")
    }

    @Test func separatorsAreOneCellThick() throws {
        #expect(Separator().intrinsicContentSize.height == 1)
        #expect(Separator(axis: .vertical).intrinsicContentSize.width == 1)
        #expect(try draw(Separator(), width: 5) == ["─────"])
    }

    @Test func hiddenViewsAndTheirSubviewsAreNotDrawn() throws {
        let box = BoxView()
        box.contentView.addSubview(Label("x"))
        box.isHidden = true
        #expect(try draw(box, width: 5).isEmpty)
    }

    @Test func drawingIsClippedToEveryAncestorsFrame() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 20, height: 3))
        let narrow = View(frame: Rect(x: 2, y: 0, width: 4, height: 1))
        root.addSubview(narrow)
        narrow.addSubview(Label("clipped text").with(frame: Rect(x: 0, y: 0, width: 12, height: 1)))
        #expect(Renderer.render(root).lines[0] == "  clip")
    }
}

extension View {
    func with(frame: Rect) -> Self {
        self.frame = frame
        return self
    }
}
