"""kiwisolver's side of `bench layout`: the systems of LayoutSystems.swift, built the same way.

Usage: kiwi_layout_bench.py VIEWS... --resizes N --repetitions R
Prints JSON: {"chain-1000": {"scratch": seconds, "resize": seconds-per-resize}, ...}. Constraint
objects are built before the clock starts, as on the Swift side; timed are addConstraint for
every constraint plus updateVariables, and suggestValue plus updateVariables per resize.
"""
import argparse
import json
import math
import time

import kiwisolver as kiwi


def chain(views):
    container = kiwi.Variable("container.width")
    constraints = [container >= 0]
    previous_right = None
    for index in range(views):
        left, width = kiwi.Variable(f"v{index}.left"), kiwi.Variable(f"v{index}.width")
        constraints.append(left == (previous_right + 8 if previous_right is not None else 0))
        constraints.append(width >= 10)
        constraints.append((width == (60 if index % 3 == 0 else 50)) | ("medium" if index % 3 == 0 else "weak"))
        previous_right = left + width
    constraints.append((previous_right == container) | "strong")
    return container, constraints


def grid(views):
    side = max(1, int(math.sqrt(views)))
    container = kiwi.Variable("container.width")
    constraints = [container >= 0]
    cells = []
    for row in range(side):
        row_cells = []
        for column in range(side):
            x, y, w, h = (kiwi.Variable(f"c{row}.{column}.{n}") for n in "xywh")
            constraints += [w >= 20, (w == h) | "medium", (w == 40) | "weak"]
            if column == 0:
                constraints.append(x == 0)
            else:
                px, py, pw, _ = row_cells[column - 1]
                constraints += [x == px + pw + 4, y == py]
            if row == 0:
                constraints.append(y == 0)
            else:
                ax, ay, aw, ah = cells[row - 1][column]
                constraints += [y == ay + ah + 4, w == aw]
            row_cells.append((x, y, w, h))
        lx, _, lw, _ = row_cells[-1]
        constraints.append((lx + lw == container) | "strong")
        cells.append(row_cells)
    return container, constraints


def measure(build, views, resizes, repetitions):
    scratch, per_resize = [], []
    for _ in range(repetitions):
        container, constraints = build(views)
        solver = kiwi.Solver()
        start = time.perf_counter()
        for constraint in constraints:
            solver.addConstraint(constraint)
        solver.updateVariables()
        scratch.append(time.perf_counter() - start)
        solver.addEditVariable(container, "strong")
        start = time.perf_counter()
        for step in range(resizes):
            solver.suggestValue(container, 800 + (step % 200))
            solver.updateVariables()
        per_resize.append((time.perf_counter() - start) / max(1, resizes))
    return {"scratch": sorted(scratch)[len(scratch) // 2], "resize": sorted(per_resize)[len(per_resize) // 2]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("views", type=int, nargs="+")
    parser.add_argument("--resizes", type=int, default=1000)
    parser.add_argument("--repetitions", type=int, default=3)
    arguments = parser.parse_args()
    results = {}
    for views in arguments.views:
        for name, build in (("chain", chain), ("grid", grid)):
            results[f"{name}-{views}"] = measure(build, views, arguments.resizes, arguments.repetitions)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
