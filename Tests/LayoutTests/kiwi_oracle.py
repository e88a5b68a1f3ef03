"""Solves the systems Tests/LayoutTests/KiwisolverOracleTests.swift generates with kiwisolver.

Reads {"systems": [...]} on stdin and writes one result per system on stdout. Each system is
replayed step by step exactly as the Swift test replays it with Ribcage's solver.
"""
import json
import sys

import kiwisolver as kiwi

OPS = {"<=": lambda e, c: e <= c, "==": lambda e, c: e == c, ">=": lambda e, c: e >= c}


def solve(system):
    solver = kiwi.Solver()
    variables = [kiwi.Variable(f"v{i}") for i in range(system["variables"])]
    constraints = []
    rejected = []
    for index, spec in enumerate(system["constraints"]):
        expression = sum((coef * variables[var] for var, coef in spec["terms"]), spec["constant"])
        constraint = OPS[spec["op"]](expression, 0) | spec["strength"]
        try:
            solver.addConstraint(constraint)
            constraints.append(constraint)
        except kiwi.UnsatisfiableConstraint:
            rejected.append(index)
            constraints.append(None)
            # kiwi leaves a refused constraint's pivots in its tableau; Ribcage's solver restores
            # its state instead. Model that by rebuilding from the accepted constraints, in order.
            solver = kiwi.Solver()
            for accepted in constraints:
                if accepted is not None:
                    solver.addConstraint(accepted)
    snapshots = []
    for edit in system["edits"]:
        solver.addEditVariable(variables[edit["var"]], edit["strength"])
    for step in system["suggestions"]:
        solver.suggestValue(variables[step["var"]], step["value"])
        solver.updateVariables()
        snapshots.append([v.value() for v in variables])
    for index in system["removals"]:
        if constraints[index] is not None:
            solver.removeConstraint(constraints[index])
    solver.updateVariables()
    snapshots.append([v.value() for v in variables])
    return {"rejected": rejected, "snapshots": snapshots}


def solve_or_report(system):
    try:
        return solve(system)
    except Exception as error:  # kiwi's InternalSolverError and friends: report, do not crash
        return {"rejected": [], "snapshots": [], "error": f"{type(error).__name__}: {error}"}


def main():
    data = json.load(sys.stdin)
    json.dump({"results": [solve_or_report(s) for s in data["systems"]]}, sys.stdout)


if __name__ == "__main__":
    main()
