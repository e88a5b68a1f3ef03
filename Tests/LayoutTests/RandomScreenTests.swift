import ConstraintSolver
import ConstraintSolverTesting
import Foundation
import Layout
import LayoutDSL
import Testing

/// Random screens written with `ndl`, satisfiable by construction: every view's frame is chosen
/// first, and its required constraints are ones that frame keeps. Optional constraints, intrinsic
/// sizes with hugging and compression resistance, and views placed by their frames pull every
/// way on top, at priorities across 1…1,000 (999 included). A correct layout reports no
/// conflict, keeps the root's frame, and minimises the optional constraints' errors priority by
/// priority: kiwisolver, given the exported system one level at a time, says what the optimum
/// is, and where it is unique, where every variable must be.
@MainActor
@Suite("Random satisfiable screens: no false conflict, the optimum kiwisolver finds level by level")
struct RandomScreenTests {
    static let seed: UInt64 = 0x5C8E_E017
    static let screenCount = 300

    @Test("300 random ndl screens: no conflict, the root keeps its frame, the optimum to 1e-6")
    func randomScreens() async throws {
        var screens: [Screen] = []
        var results: [(index: Int, report: LayoutReport, values: [Double], levels: [Double: Double])] = []
        for index in 0..<Self.screenCount {
            var random = SplitMix64(state: Self.seed &+ UInt64(index))
            let root = try ScreenBuilder.build(using: &random)
            root.layoutIfNeeded()
            let (screen, variables) = Screen.export(root)
            screens.append(screen)
            results.append(
                (index, root.layoutReport, variables.map(\.value), screen.errorsByLevel(variables)))
            // Seconds of solving in a debug build: one screen at a time leaves the cooperative
            // pool to the other suites' tasks in between (`swift test` runs them all at once).
            await Task.yield()
        }
        let answer = try await KiwiOracle.run(JSONEncoder().encode(["screens": screens]))
        let references = try JSONDecoder().decode([String: [Reference]].self, from: answer)["results"] ?? []
        try #require(references.count == screens.count)

        var failures = 0
        var compared = 0
        var unique = 0
        for (index, report, values, levels) in results {
            let reference = references[index]
            var problems: [String] = []
            if let error = reference.error { problems.append("kiwisolver failed: \(error)") }
            if !report.errors.isEmpty { problems.append("reported \(report.errors)") }
            if report.rootFrameGaveWay { problems.append("the root's frame gave way") }
            for (level, optimum) in reference.levels {
                let ours = levels[level] ?? 0
                if abs(ours - optimum) > 1e-6 * (1 + abs(optimum)) {
                    problems.append("level \(level): errors \(ours), the optimum is \(optimum)")
                }
            }
            for (variable, range) in reference.ranges.enumerated() where range[1] - range[0] <= 1e-7 {
                unique += 1
                let expected = (range[0] + range[1]) / 2
                if abs(values[variable] - expected) > 1e-6 {
                    problems.append(
                        "\(screens[index].names[variable]) = \(values[variable]), must be \(expected)")
                }
            }
            compared += reference.ranges.count
            if !problems.isEmpty {
                failures += 1
                if failures <= 5 {
                    Issue.record("screen \(index) (seed \(Self.seed) + \(index)): \(problems.prefix(4))")
                }
            }
        }
        #expect(failures == 0, "\(failures) of \(Self.screenCount) screens")
        // The comparison means something only if most values are pinned down by the optimum.
        #expect(unique * 2 > compared, "\(unique) of \(compared) values are unique")
    }

    struct Reference: Decodable {
        var levels: [(Double, Double)]
        var ranges: [[Double]]
        var error: String?

        enum CodingKeys: String, CodingKey { case levels, ranges, error }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            levels = try container.decode([[Double]].self, forKey: .levels).map { ($0[0], $0[1]) }
            ranges = try container.decode([[Double]].self, forKey: .ranges)
            error = try container.decodeIfPresent(String.self, forKey: .error)
        }
    }
}

/// A laid-out screen's constraint system as `kiwi_oracle.py` reads it: each constraint as
/// `[op, level or null for required, weight, constant, [variable, coefficient, …]]`, each edit
/// as `[variable, level, weight, value]`.
struct Screen: Encodable {
    enum Entry: Encodable {
        case text(String)
        case number(Double?)
        case terms([Double])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number): try container.encode(number)
            case .terms(let terms): try container.encode(terms)
            }
        }
    }

    var variables = 0
    var constraints: [[Entry]] = []
    var edits: [[Double]] = []
    var names: [String] = []

    enum CodingKeys: String, CodingKey { case variables, constraints, edits }

    private var solverConstraints: [Constraint] = []
    private var solverEdits: [SolverEdit] = []

    @MainActor
    static func export(_ root: View) -> (Screen, [Variable]) {
        var screen = Screen()
        var index: [ObjectIdentifier: Int] = [:]
        var variables: [Variable] = []
        func number(_ variable: Variable) -> Double {
            if let known = index[ObjectIdentifier(variable)] { return Double(known) }
            index[ObjectIdentifier(variable)] = variables.count
            variables.append(variable)
            return Double(variables.count - 1)
        }
        screen.solverConstraints = root.solverConstraints
        screen.solverEdits = root.solverEdits
        for constraint in screen.solverConstraints {
            let strength = constraint.strength
            screen.constraints.append([
                .text("\(constraint.relation)"), .number(strength.isRequired ? nil : strength.level),
                .number(strength.value), .number(constraint.expression.constant),
                .terms(constraint.expression.terms.flatMap { [number($0.variable), $0.coefficient] }),
            ])
        }
        for edit in screen.solverEdits {
            screen.edits.append([number(edit.variable), edit.strength.level, edit.strength.value, edit.value])
        }
        screen.variables = variables.count
        screen.names = variables.map(\.name)
        return (screen, variables)
    }

    /// The weighted errors of the optional constraints and edits on each level, with the
    /// variables' current values; and every required constraint's error under 1e-6, or a level
    /// of `+infinity` that no optimum has.
    func errorsByLevel(_ variables: [Variable]) -> [Double: Double] {
        var levels: [Double: Double] = [:]
        for constraint in solverConstraints {
            let value = constraint.expression.value
            let error =
                switch constraint.relation {
                case .equal: abs(value)
                case .lessThanOrEqual: max(0, value)
                case .greaterThanOrEqual: max(0, -value)
                }
            if constraint.strength.isRequired {
                if error > 1e-6 { levels[.infinity, default: 0] += error }
            } else {
                levels[constraint.strength.level, default: 0] += constraint.strength.value * error
            }
        }
        for edit in solverEdits {
            levels[edit.strength.level, default: 0] +=
                edit.strength.value * abs(edit.variable.value - edit.value)
        }
        return levels
    }
}

/// Builds one random screen; see ``RandomScreenTests``.
@MainActor
enum ScreenBuilder {
    /// A frame in root coordinates.
    struct Box {
        var x, y, width, height: Double
    }

    static let priorities: [LayoutPriority] = [
        1, 2, 10, 50, 100, 249, 250, 251, 300, 499, 500, 501, 749, 750, 750.5, 751, 900, 990, 998, 999,
    ]

    static func build(using random: inout SplitMix64) throws -> View {
        let size = Box(
            x: 0, y: 0, width: Double(Int.random(in: 40...160, using: &random)),
            height: Double(Int.random(in: 10...50, using: &random)))
        let root = View(frame: Rect(x: 0, y: 0, width: size.width, height: size.height))
        var views: [(view: View, box: Box)] = [(root, size)]
        for _ in 0..<Int.random(in: 3...14, using: &random) {
            let parent =
                Bool.random(using: &random) ? views[0] : views.randomElement(using: &random) ?? views[0]
            let box = randomBox(in: parent.box, using: &random)
            let siblings = views.filter { $0.view.superview === parent.view }
            let view: View
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                // Placed by its frame: edit variables at the root's strength.
                view = View(
                    frame: Rect(
                        x: box.x - parent.box.x, y: box.y - parent.box.y, width: box.width, height: box.height
                    ))
                parent.view.addSubview(view)
            case 1...3:
                let label = ScreenLabel(
                    Size(
                        width: Double(Int.random(in: 0...30, using: &random)),
                        height: Double(Int.random(in: 0...3, using: &random))))
                for axis in [LayoutAxis.horizontal, .vertical] {
                    label.setContentHuggingPriority(pick(using: &random), for: axis)
                    label.setContentCompressionResistancePriority(pick(using: &random), for: axis)
                }
                view = label
                parent.view.addSubview(view)
                try constrain(view, box, in: parent.box, siblings: siblings, using: &random)
            default:
                view = View()
                parent.view.addSubview(view)
                try constrain(view, box, in: parent.box, siblings: siblings, using: &random)
            }
            view.accessibilityIdentifier = "v\(views.count)"
            views.append((view, box))
        }
        return root
    }

    private static func pick(using random: inout SplitMix64) -> LayoutPriority {
        Int.random(in: 0..<5, using: &random) == 0
            ? LayoutPriority(Double(Int.random(in: 1...999, using: &random)))
            : priorities.randomElement(using: &random) ?? 500
    }

    private static func randomBox(in parent: Box, using random: inout SplitMix64) -> Box {
        func span(_ start: Double, _ length: Double) -> (Double, Double) {
            let offset = Double(Int.random(in: 0...Int(length), using: &random))
            let extent = Double(Int.random(in: 0...Int(length - offset), using: &random))
            return (start + offset, extent)
        }
        let (x, width) = span(parent.x, parent.width)
        let (y, height) = span(parent.y, parent.height)
        return Box(x: x, y: y, width: width, height: height)
    }

    /// Required constraints that `box` keeps, then optional ones that pull anywhere.
    private static func constrain(
        _ view: View, _ box: Box, in parent: Box, siblings: [(view: View, box: Box)],
        using random: inout SplitMix64
    ) throws {
        let horizontal = Int.random(in: 0..<7, using: &random)
        let vertical = Int.random(in: 0..<6, using: &random)
        let sibling = siblings.randomElement(using: &random)
        let multiplier: Double = [0.5, 1, 2].randomElement(using: &random) ?? 1
        let slack = (0..<3).map { _ in Double(Int.random(in: 0...5, using: &random)) }
        try view.ndl.makeConstraints { make in
            // Horizontal: left, right and width of `box` relative to the superview or a sibling.
            let left = box.x - parent.x
            let right = parent.x + parent.width - box.x - box.width
            switch horizontal {
            case 0:
                make.left.equalToSuperview().offset(left)
                make.width.equalTo(box.width)
            case 1:
                make.left.equalToSuperview().offset(left)
                make.right.equalToSuperview().inset(right)
            case 2 where sibling != nil:
                guard let sibling else { break }
                make.left.equalTo(sibling.view.ndl.right).offset(box.x - sibling.box.x - sibling.box.width)
                make.width.equalTo(sibling.view.ndl.width).multipliedBy(multiplier)
                    .offset(box.width - multiplier * sibling.box.width)
            case 3:
                make.centerX.equalToSuperview().offset(box.x + box.width / 2 - parent.x - parent.width / 2)
                make.width.equalToSuperview().multipliedBy(multiplier).offset(
                    box.width - multiplier * parent.width)
            case 4:
                make.left.greaterThanOrEqualToSuperview().offset(left - slack[0])
                make.right.lessThanOrEqualToSuperview().offset(-right + slack[1])
                make.width.lessThanOrEqualTo(box.width + slack[2])
            case 5:
                make.leading.equalToSuperview().offset(left)
                make.trailing.equalToSuperview().inset(right)
            default:
                make.left.equalToSuperview().offset(left)
            }
            let top = box.y - parent.y
            let bottom = parent.y + parent.height - box.y - box.height
            switch vertical {
            case 0:
                make.top.equalToSuperview().offset(top)
                make.height.equalTo(box.height)
            case 1:
                make.top.equalToSuperview().offset(top)
                make.bottom.equalToSuperview().inset(bottom)
            case 2 where sibling != nil:
                guard let sibling else { break }
                make.top.equalTo(sibling.view.ndl.bottom).offset(box.y - sibling.box.y - sibling.box.height)
                make.height.equalTo(sibling.view.ndl.height).multipliedBy(multiplier)
                    .offset(box.height - multiplier * sibling.box.height)
            case 3:
                make.centerY.equalToSuperview().offset(box.y + box.height / 2 - parent.y - parent.height / 2)
                make.height.equalToSuperview().multipliedBy(multiplier)
                    .offset(box.height - multiplier * parent.height)
            case 4:
                make.top.greaterThanOrEqualToSuperview().offset(top - slack[0])
                make.bottom.lessThanOrEqualToSuperview().offset(-bottom + slack[1])
            default:
                make.top.equalToSuperview().offset(top)
            }
        }
        let count = Int.random(in: 0...3, using: &random)
        let choices = (0..<count).map { _ in Int.random(in: 0..<9, using: &random) }
        let priorities = (0..<count).map { _ in pick(using: &random) }
        let amounts = (0..<count).map { _ in Double(Int.random(in: -20...300, using: &random)) }
        try view.ndl.makeConstraints { make in
            for (choice, (priority, amount)) in zip(choices, zip(priorities, amounts)) {
                switch choice {
                case 0: make.width.equalTo(amount).priority(priority)
                case 1: make.height.equalTo(amount / 4).priority(priority)
                case 2: make.left.equalToSuperview().offset(amount).priority(priority)
                case 3 where sibling != nil:
                    guard let sibling else { break }
                    make.top.equalTo(sibling.view.ndl.bottom).offset(amount / 10).priority(priority)
                case 4: make.width.lessThanOrEqualTo(amount).priority(priority)
                case 5: make.height.greaterThanOrEqualTo(amount).priority(priority)
                case 6: make.edges.equalToSuperview().priority(priority)
                case 7: make.width.equalToSuperview().multipliedBy(0.5).priority(priority)
                default: make.centerX.equalToSuperview().offset(amount / 10).priority(priority)
                }
            }
        }
    }
}

/// A view with an intrinsic size, as a label has.
@MainActor
final class ScreenLabel: View {
    private let content: Size

    init(_ content: Size) {
        self.content = content
        super.init()
    }

    override var intrinsicContentSize: Size { content }
}
