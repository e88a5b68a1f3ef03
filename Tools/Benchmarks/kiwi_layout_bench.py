"""kiwisolver's side of `bench layout`: the constraint systems the Swift side exported, solved,
resized and edited the same way.

Usage: kiwi_layout_bench.py --resizes N --repetitions R --limit SECONDS SYSTEM.json...
Each file: {"variables": n, "constraints": [[op, strength, constant, [var, coeff, ...]], ...],
"edits": [left, top, width, height], "editValues": [...], "editStrength": s, "removal": i}.
Prints JSON keyed by file name: {"list-1000": {"scratch": seconds, "resize": seconds per resize,
"remove": seconds, "readd": seconds}, ...}, or {"didNotFinish": SECONDS} for a system whose
first solve from scratch took longer than the limit. As on the Swift side, constraint objects
are built before the clock starts; timed are the root's edit variables and their suggestions,
addConstraint for every constraint, and updateVariables; then suggestValue of the width plus
updateVariables per resize; then removing constraint `removal` (a required equality) and adding
it again with updateVariables.
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


def median(samples):
    return sorted(samples)[len(samples) // 2]


def measure(system, resizes, repetitions, limit):
    scratch, per_resize, removes, readds = [], [], [], []
    for _ in range(repetitions):
        variables, constraints = build(system)
        edits = [variables[i] for i in system["edits"]]
        solver = kiwi.Solver()
        start = time.perf_counter()
        for variable, value in zip(edits, system["editValues"]):
            solver.addEditVariable(variable, system["editStrength"])
            solver.suggestValue(variable, value)
        for index, constraint in enumerate(constraints):
            solver.addConstraint(constraint)
            if index % 64 == 0 and time.perf_counter() - start > limit:
                return {"didNotFinish": limit}
        solver.updateVariables()
        scratch.append(time.perf_counter() - start)
        width = edits[2]
        start = time.perf_counter()
        done = 0
        while done < resizes and (done == 0 or time.perf_counter() - start < limit):
            solver.suggestValue(width, 100 + done % 40)
            solver.updateVariables()
            done += 1
        per_resize.append((time.perf_counter() - start) / max(1, done))
        removed = constraints[system["removal"]]
        start = time.perf_counter()
        solver.removeConstraint(removed)
        removes.append(time.perf_counter() - start)
        start = time.perf_counter()
        solver.addConstraint(removed)
        solver.updateVariables()
        readds.append(time.perf_counter() - start)
    return {
        "scratch": median(scratch),
        "resize": median(per_resize),
        "remove": median(removes),
        "readd": median(readds),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("systems", nargs="+")
    parser.add_argument("--resizes", type=int, default=1000)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--limit", type=float, default=60)
    arguments = parser.parse_args()
    results = {}
    for path in arguments.systems:
        with open(path) as file:
            system = json.load(file)
        key = os.path.splitext(os.path.basename(path))[0]
        results[key] = measure(system, arguments.resizes, arguments.repetitions, arguments.limit)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
