import Layout

/// The layout-shaped constraint systems `bench layout` solves: the same shapes as
/// `kiwi_layout_bench.py` builds for kiwisolver, so both solve identical systems.
///
/// - A chain: views side by side in a container; each view's `left` follows the previous view's
///   right edge plus 8, each width is at least 10 and prefers 50 (weak) or 60 (medium), and
///   the chain prefers (strong) to end at the container's right edge.
/// - A grid: √n × √n cells of 4 variables each, aligned in rows and columns with 4 points of
///   spacing, square (medium), at least 20 wide, preferring 40 (weak), and the last column
///   strongly wants to end at the container's right edge.
/// In both, the container width is an edit variable, which is what a resize suggests. Both
/// shapes fill the tableau in quadratically, in any Cassowary solver; see `LayoutBenchmark`.
struct LayoutSystem {
    let containerWidth: Variable
    let variables: [Variable]
    let constraints: [Constraint]

    static func chain(views: Int) -> LayoutSystem {
        let container = Variable("container.width")
        var variables = [container]
        var constraints: [Constraint] = [container >= 0]
        var previousRight: Expression?
        for index in 0..<views {
            let left = Variable("v\(index).left")
            let width = Variable("v\(index).width")
            variables += [left, width]
            constraints.append(left == (previousRight.map { $0 + 8 } ?? 0.0.expression))
            constraints.append(width >= 10)
            constraints.append((width == (index % 3 == 0 ? 60 : 50)) | (index % 3 == 0 ? .medium : .weak))
            previousRight = left + width
        }
        if let previousRight { constraints.append((previousRight == container) | .strong) }
        return LayoutSystem(containerWidth: container, variables: variables, constraints: constraints)
    }

    static func grid(views: Int) -> LayoutSystem {
        let side = max(1, Int(Double(views).squareRoot()))
        let container = Variable("container.width")
        var variables = [container]
        var constraints: [Constraint] = [container >= 0]
        var cells: [[(x: Variable, y: Variable, w: Variable, h: Variable)]] = []
        for row in 0..<side {
            var cellsInRow: [(x: Variable, y: Variable, w: Variable, h: Variable)] = []
            for column in 0..<side {
                let cell = (
                    x: Variable("c\(row).\(column).x"), y: Variable("c\(row).\(column).y"),
                    w: Variable("c\(row).\(column).w"), h: Variable("c\(row).\(column).h")
                )
                variables += [cell.x, cell.y, cell.w, cell.h]
                constraints.append(cell.w >= 20)
                constraints.append((cell.w == cell.h) | .medium)
                constraints.append((cell.w == 40) | .weak)
                if column == 0 {
                    constraints.append(cell.x == 0)
                } else {
                    let previous = cellsInRow[column - 1]
                    constraints.append(cell.x == previous.x + previous.w + 4)
                    constraints.append(cell.y == previous.y)
                }
                if row == 0 {
                    constraints.append(cell.y == 0)
                } else {
                    let above = cells[row - 1][column]
                    constraints.append(cell.y == above.y + above.h + 4)
                    constraints.append(cell.w == above.w)
                }
                cellsInRow.append(cell)
            }
            if let last = cellsInRow.last { constraints.append((last.x + last.w == container) | .strong) }
            cells.append(cellsInRow)
        }
        return LayoutSystem(containerWidth: container, variables: variables, constraints: constraints)
    }
}
