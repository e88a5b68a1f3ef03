"""kiwisolver's side of `bench layout`: the constraint systems the Swift side exported, solved
and resized the same way.

Usage: kiwi_layout_bench.py --resizes N --repetitions R SYSTEM.json...
Each file: {"variables": n, "constraints": [[op, strength, constant, [var, coeff, ...]], ...],
"edits": [left, top, width, height], "editValues": [...], "editStrength": s}.
Prints JSON: {"list-1000": {"scratch": seconds, "resize": seconds-per-resize}, ...}, keyed by
file name. As on the Swift side, constraint objects are built before the clock starts; timed are
the root's edit variables and their suggestions, addConstraint for every constraint, and
updateVariables; then suggestValue of the width plus updateVariables per resize.
"""
import argparse
import json
import os
import time

import kiwisolver as kiwi


def build(system):
    variables = [kiwi.Variable(f"v{i}") for i in range(system["variables"])]
    constraints = []
    for op, strength, constant, terms in system["constraints"]:
        expression = constant
        for i in range(0, len(terms), 2):
            expression = expression + variables[int(terms[i])] * terms[i + 1]
        if op == "==":
            constraint = expression == 0
        elif op == "<=":
            constraint = expression <= 0
        else:
            constraint = expression >= 0
        constraints.append(constraint | strength)
    return variables, constraints


def measure(system, resizes, repetitions):
    scratch, per_resize = [], []
    for _ in range(repetitions):
        variables, constraints = build(system)
        edits = [variables[i] for i in system["edits"]]
        solver = kiwi.Solver()
        start = time.perf_counter()
        for variable, value in zip(edits, system["editValues"]):
            solver.addEditVariable(variable, system["editStrength"])
            solver.suggestValue(variable, value)
        for constraint in constraints:
            solver.addConstraint(constraint)
        solver.updateVariables()
        scratch.append(time.perf_counter() - start)
        width = edits[2]
        start = time.perf_counter()
        for step in range(resizes):
            solver.suggestValue(width, 100 + step % 40)
            solver.updateVariables()
        per_resize.append((time.perf_counter() - start) / max(1, resizes))
    return {"scratch": sorted(scratch)[len(scratch) // 2], "resize": sorted(per_resize)[len(per_resize) // 2]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("systems", nargs="+")
    parser.add_argument("--resizes", type=int, default=1000)
    parser.add_argument("--repetitions", type=int, default=3)
    arguments = parser.parse_args()
    results = {}
    for path in arguments.systems:
        with open(path) as file:
            system = json.load(file)
        key = os.path.splitext(os.path.basename(path))[0]
        results[key] = measure(system, arguments.resizes, arguments.repetitions)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
