import HeadlessUI
import Layout
import LayoutDSL
import Testing

@MainActor
@Suite("StackView arranges with constraints, as UIStackView")
struct StackViewTests {
    private func fixed(_ width: Double, _ height: Double = 1) -> View {
        let view = FixedSizeView(size: Size(width: width, height: height))
        return view
    }

    /// Lays `stack` out filling `size`, or, with `hugging`, at its top-left corner at its own
    /// size.
    /// Lays `stack` out in a new root of `size`, and returns the root: a test that lays the stack
    /// out again keeps it, as constraints hold their views weakly.
    @discardableResult
    private func layOut(_ stack: StackView, in size: Size, hugging: Bool = false) throws -> View {
        let root = View(frame: Rect(origin: .zero, size: size))
        root.addSubview(stack)
        try stack.ndl.makeConstraints { make in
            if hugging {
                make.top.leading.equalToSuperview()
            } else {
                make.edges.equalToSuperview()
            }
        }
        try root.solveLayout()
        return root
    }

    @Test func fillPutsViewsEndToEndWithSpacingAndStretchesTheLeastHuggingOne() throws {
        let (a, b) = (fixed(4), fixed(6))
        b.setContentHuggingPriority(.defaultLow - 1, for: .horizontal)
        let stack = StackView(arrangedSubviews: [a, b])
        stack.axis = .horizontal
        stack.spacing = 2
        try layOut(stack, in: Size(width: 20, height: 3))
        #expect(a.frame == Rect(x: 0, y: 0, width: 4, height: 3))
        #expect(b.frame == Rect(x: 6, y: 0, width: 14, height: 3))
    }

    @Test(
        "fill breaks a tie of hugging priorities by index, as UIKit: the first views keep their size, the last stretches"
    )
    func fillStretchesTheLastOfTiedViews() throws {
        for axis in [LayoutAxis.horizontal, .vertical] {
            let views = [fixed(4, 4), fixed(6, 6), fixed(3, 3)]
            let stack = StackView(arrangedSubviews: views)
            stack.axis = axis
            let root = try layOut(stack, in: Size(width: 20, height: 20))
            let lengths = { views.map { axis == .horizontal ? $0.frame.width : $0.frame.height } }
            #expect(lengths() == [4, 6, 10], "\(axis)")
            // Whatever the room, on every layout.
            root.frame = Rect(x: 0, y: 0, width: 17, height: 17)
            try root.solveLayout()
            #expect(lengths() == [4, 6, 7], "\(axis)")
        }
    }

    @Test("fill breaks a tie of compression resistance by index: the last view shrinks first")
    func fillShrinksTheLastOfTiedViews() throws {
        let views = [fixed(4), fixed(6), fixed(3)]
        let stack = StackView(arrangedSubviews: views)
        stack.axis = .horizontal
        try layOut(stack, in: Size(width: 11, height: 1))
        #expect(views.map(\.frame.width) == [4, 6, 1])
    }

    @Test(
        "fill: priorities decide before the index, and the order follows the arrangement and intrinsic sizes")
    func fillOrderFollowsPrioritiesAndChanges() throws {
        let views = [ResizableView(width: 4), ResizableView(width: 6), ResizableView(width: 3)]
        let stack = StackView(arrangedSubviews: views)
        stack.axis = .horizontal
        views[0].setContentHuggingPriority(.defaultLow - 1, for: .horizontal)
        let root = try layOut(stack, in: Size(width: 20, height: 1))
        #expect(views.map(\.frame.width) == [11, 6, 3], "the least hugging stretches, first or not")
        views[0].setContentHuggingPriority(.defaultLow, for: .horizontal)
        views[0].width = 7
        try root.solveLayout()
        #expect(views.map(\.frame.width) == [7, 6, 7], "a new intrinsic size is kept, the last stretches")
        views[2].isHidden = true
        try root.solveLayout()
        #expect(views[0].frame.width == 7)
        #expect(views[1].frame.width == 13, "the last one shown stretches")
        stack.insertArrangedSubview(views[1], at: 0)
        try root.solveLayout()
        #expect(views[1].frame == Rect(x: 0, y: 0, width: 6, height: 1), "moved first, it keeps its size")
        #expect(views[0].frame.width == 14)
    }

    @Test func fillEquallyGivesEveryViewTheSameLength() throws {
        let views = [fixed(1), fixed(5), fixed(2)]
        let stack = StackView(arrangedSubviews: views)
        stack.axis = .horizontal
        stack.distribution = .fillEqually
        stack.spacing = 1
        try layOut(stack, in: Size(width: 32, height: 1))
        #expect(views.map(\.frame.width) == [10, 10, 10])
        #expect(views.map(\.frame.minX) == [0, 11, 22])
    }

    @Test func fillProportionallySharesByIntrinsicSize() throws {
        let views = [fixed(1), fixed(3)]
        let stack = StackView(arrangedSubviews: views)
        stack.axis = .horizontal
        stack.distribution = .fillProportionally
        try layOut(stack, in: Size(width: 40, height: 1))
        #expect(views.map(\.frame.width) == [10, 30])
    }

    @Test func equalSpacingKeepsSizesAndEvensTheGaps() throws {
        let views = [fixed(2), fixed(4), fixed(2)]
        let stack = StackView(arrangedSubviews: views)
        stack.axis = .horizontal
        stack.distribution = .equalSpacing
        try layOut(stack, in: Size(width: 20, height: 1))
        #expect(views.map(\.frame.minX) == [0, 8, 18])
        #expect(views.map(\.frame.width) == [2, 4, 2])
    }

    @Test func equalCenteringEvensTheDistancesBetweenCentres() throws {
        let views = [fixed(2), fixed(6), fixed(2)]
        let stack = StackView(arrangedSubviews: views)
        stack.axis = .horizontal
        stack.distribution = .equalCentering
        try layOut(stack, in: Size(width: 22, height: 1))
        #expect(views.map(\.frame.midX) == [1, 11, 21])
    }

    @Test func alignmentPlacesViewsAcrossTheAxis() throws {
        let (a, b) = (fixed(4, 1), fixed(6, 3))
        let stack = StackView(arrangedSubviews: [a, b])
        stack.alignment = .center
        let root = try layOut(stack, in: Size(width: 10, height: 4))
        #expect(a.frame == Rect(x: 3, y: 0, width: 4, height: 1))
        #expect(b.frame == Rect(x: 2, y: 1, width: 6, height: 3))
        stack.alignment = .trailing
        try root.solveLayout()
        #expect(a.frame.minX == 6)
    }

    @Test func aStackThatDoesNotFillHugsItsWidestView() throws {
        let stack = StackView(arrangedSubviews: [fixed(4), fixed(7)])
        stack.alignment = .leading
        let root = View(frame: Rect(x: 0, y: 0, width: 30, height: 10))
        root.addSubview(stack)
        try stack.ndl.makeConstraints { make in make.top.leading.equalToSuperview() }
        try root.solveLayout()
        #expect(stack.frame.size == Size(width: 7, height: 2))
    }

    @Test func hidingAViewClosesItsGapAndShowingItReopensIt() throws {
        let views = [fixed(3), fixed(3), fixed(3)]
        let stack = StackView(arrangedSubviews: views)
        stack.axis = .horizontal
        stack.spacing = 1
        let root = try layOut(stack, in: Size(width: 30, height: 1), hugging: true)
        #expect(stack.frame.width == 11)
        views[1].isHidden = true
        try root.solveLayout()
        #expect(views[2].frame.minX == 4)
        #expect(stack.frame.width == 7)
        views[1].isHidden = false
        try root.solveLayout()
        #expect(views[2].frame.minX == 8)
    }

    @Test func customSpacingAfterAViewReplacesTheSpacing() throws {
        let views = [fixed(2), fixed(2), fixed(2)]
        let stack = StackView(arrangedSubviews: views)
        stack.spacing = 1
        stack.setCustomSpacing(3, after: views[0])
        try layOut(stack, in: Size(width: 5, height: 20), hugging: true)
        #expect(views.map(\.frame.minY) == [0, 4, 6])
    }

    @Test func removingAnArrangedViewFromTheStackTakesItOutOfTheArrangement() throws {
        let views = [fixed(2), fixed(2)]
        let stack = StackView(arrangedSubviews: views)
        views[0].removeFromSuperview()
        #expect(stack.arrangedSubviews.count == 1)
        stack.removeArrangedSubview(views[1])
        #expect(stack.arrangedSubviews.isEmpty)
        #expect(views[1].superview === stack)  // as UIKit: still a subview
    }
}

/// A view with a fixed intrinsic size.
final class FixedSizeView: View {
    let size: Size
    init(size: Size) {
        self.size = size
        super.init(frame: .zero)
    }
    override var intrinsicContentSize: Size { size }
}

/// A view whose intrinsic width can change, as a label's does with its text.
final class ResizableView: View {
    var width: Double {
        didSet { invalidateIntrinsicContentSize() }
    }
    init(width: Double) {
        self.width = width
        super.init(frame: .zero)
    }
    override var intrinsicContentSize: Size { Size(width: width, height: 1) }
}
