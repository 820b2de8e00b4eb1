"""The fabric solvers side by side (issue: a solve whose cost does not grow with the mesh).

A cotton sheet 2.8 × 2 m held by a 20 cm clamp at each top corner, at each grid, run by each
candidate in one process:

* `links, diagonal`: the links solved together by conjugate gradients with a diagonal
  preconditioner, then passes for bending (`fabric_solver` 0, as it was);
* `links, factored`: the same, preconditioned by the links' system at the directions of a
  substep, inverted through the particles' factored system (LinksInverse) and made again by
  LinksTogether's rule (`fabric_solver` 0, the default now): when a solve costs more
  iterations than the average since the factor was made (`refactor_by_average`);
* `links, factored, by excess`: the same, made again when the solves' iterations past ten
  add up to a hundred, as it was;
* `projective`: stretch, shear, bending and twist in one projective solve of a matrix factored
  once (`fabric_solver` 1, sim.core.fabric_solve), local–global iterations;
* `projective+chebyshev`: the same, with Chebyshev's acceleration of the iterations;
* `links, multigrid alone`: the links together, by conjugate gradients on the particles'
  system preconditioned by one V-cycle of geometric multigrid on the sheet's grid
  (sim.core.multigrid), its finest level made at every substep, its coarse levels again when a
  solve takes COARSEN_EXCESS iterations more than the first after they were made, in all;
* `links, multigrid`: the same while the cloth moves, and the factor's once it rests
  (`fabric_solver` 2: LinksTogether.factor_at_rest).

Where a fabric's bending is too stiff for the passes at the substep (a fine strip), the links'
solve takes its runs and twists too (LinksTogether.shapes_too); "statics" measures that on a
fine cantilever against passes alone and the projective solve.

For each: "moving" is the first `--seconds` from the flat start; "at rest" the same span from
the state the links solver settled in `--settle` s, after RESTING_S unmeasured (in which the
factor or the coarse levels are made, and multigrid finds the cloth at rest). It prints × real
time, the iterations of each step's last substep (median and largest: the links' CG, or the
projective iterations, capped at fabric_solve.MAX_ITERATIONS), how often the links' system was
factored (multigrid: how often its coarse levels were made, and its factors), the projective
solve's unbalanced force over weight, and the sag.
A run that blew up says so instead. `--candidate` runs only the ones named.

"drape" runs the drape check's specimen (denim, 61 across, bending and twist in the links'
solve) for `--seconds` from its start at 16 and at 4 substeps (`--substeps`), with the links
factored and by multigrid (alone, and with the factor at rest): × real time, the iterations of
each step's last substep (median, largest), how often each made its factor or coarse levels,
and how far apart the first two leave the cloth.

Then ("system") the links' linear system alone, (G·W·Gᵀ + α̃)·v = r, at the moving state:
conjugate gradients to 10⁻⁶ with the diagonal preconditioner, with the system factored at the
sheet's rest state (sparse Cholesky), and with the same inverse applied through the particles'
system (LinksInverse, Woodbury), iterations and milliseconds. And ("statics") what the
projective solve gets right and wrong at rest: a strip's stretch for shear below and far above
its stretch stiffness, and a fine cantilever's droop at 1, 4 and 16 substeps, with its bending
solved with the links and by the projective solve.

    .venv/bin/python bench/fabric_solvers.py [--grid 32 --grid 64 --grid 128] [--seconds 0.5]
        [--part sheet|system|statics|drape ...] [--candidate 'links, multigrid' ...]
        [--state moving|'at rest' ...]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import scipy.sparse as sparse

from clothlab.sim.core import constraint_sets, fabric_solve
from clothlab.sim.core.constraint_sets import LinksTogether
from clothlab.sim.core.factor import Factor
from clothlab.sim.core.materials import SI_FABRICS
from clothlab.sim.core.parameters import LINKS_BY_MULTIGRID, LINKS_THEN_PASSES, PROJECTIVE
from clothlab.sim.core.solver import Simulation
from clothlab.sim.core.specimens import elongation, tip_drop
from clothlab.sim.document.composition import change_body
from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import SIMaterialSpec, build_simulation, with_settings
from clothlab.sim.lab import textile

G = 9.8
RESTING_S = 1.0  # model time an "at rest" candidate runs before it is measured
# fabric_solver, links factored, projective with Chebyshev, factor at rest, factor made again by
# its average cost (LinksTogether.refactor_by_average)
CANDIDATES = {
    "links, diagonal": (LINKS_THEN_PASSES, False, False, False, True),
    "links, factored": (LINKS_THEN_PASSES, True, False, False, True),
    "links, factored, by excess": (LINKS_THEN_PASSES, True, False, False, False),
    "projective": (PROJECTIVE, False, False, False, True),
    "projective+chebyshev": (PROJECTIVE, False, True, False, True),
    "links, multigrid alone": (LINKS_BY_MULTIGRID, True, False, False, True),
    "links, multigrid": (LINKS_BY_MULTIGRID, True, False, True, True),
}


def switched(name: str) -> int:
    """The candidate's switches set (LinksTogether's and ProjectiveSolve's class flags); returns
    its fabric_solver."""
    solver, factored, chebyshev, factor_at_rest, by_average = CANDIDATES[name]
    LinksTogether.factored, LinksTogether.factor_at_rest = factored, factor_at_rest
    LinksTogether.refactor_by_average = by_average
    fabric_solve.ProjectiveSolve.chebyshev = chebyshev
    return solver


def switched_back() -> None:
    LinksTogether.factored = LinksTogether.factor_at_rest = True
    LinksTogether.refactor_by_average = True
    fabric_solve.ProjectiveSolve.chebyshev = False


def clamped_sheet(size: int, solver: int) -> Simulation:
    scene = textile.with_fabric(load_preset("hanging-sheet"), "cotton")
    scene = change_body(scene, 0, cols=size, rows=size).scene
    scene = with_settings(scene, {"damping": textile.TEST_DAMPING, "fabric_solver": solver})
    sim = build_simulation(scene)
    sim.set_pins(textile.clamps(sim.topology.rest_positions, (0, size - 1), 0.2))
    return sim


def solver_of(sim: Simulation) -> fabric_solve.ProjectiveSolve | LinksTogether:
    integrator = sim._extended
    assert integrator is not None
    for c in integrator._active:
        found = getattr(c, "projective", None) or getattr(c, "together", None)
        if isinstance(found, (fabric_solve.ProjectiveSolve, LinksTogether)):
            return found
    raise LookupError("no fabric solver ran")


def run(sim: Simulation, steps: int) -> str:
    counts, residuals = [], []
    started = time.perf_counter()
    for _ in range(steps):
        if sim.step(1) != 1:
            return f"blew up at step {sim.state.steps + 1}: {sim.instability}"
        solver = solver_of(sim)
        counts.append(solver.iterations)
        projective = isinstance(solver, fabric_solve.ProjectiveSolve)
        residuals.append(solver.residual if projective else np.nan)
    took = time.perf_counter() - started
    real = steps * sim.settings.dt / took
    factored = getattr(solver, "factorisations", 0)
    residual = np.nan if np.isnan(residuals).all() else float(np.nanmedian(residuals))
    return (
        f"{real:7.3f}× {int(np.median(counts)):5d} {max(counts):5d} {factored:5d} "
        f"{residual:10.3g} {1000 * sim.readouts().sag:8.2f}"
    )


def links_parts(sim: Simulation) -> tuple[sparse.csr_matrix, np.ndarray, np.ndarray]:
    """The solver's links' G (L, 3N) along their unit directions, which have a free end (L,)
    and α̃ (L,)."""
    links, x, w = sim.links, sim.state.x, sim.fixed.inv_mass
    s = sim.model_settings
    d = x[links.b] - x[links.a]
    rows = w[links.a] + w[links.b] > 0
    alpha = sim.link_material().compliance / (s.dt / s.substeps) ** 2
    directions = d / np.linalg.norm(d, axis=1)[:, None]
    return constraint_sets.links_gradient(directions, links.a, links.b, len(x)), rows, alpha


def links_system(sim: Simulation) -> sparse.csr_matrix:
    """(L', L') G·W·Gᵀ + α̃ of the solver's links with a free end, at the state."""
    g, rows, alpha = links_parts(sim)
    system = constraint_sets.together_system(g, sim.fixed.inv_mass, alpha, rows)
    return system[rows][:, rows].tocsr()


def conjugate_gradients(
    system, rhs: np.ndarray, precondition, tolerance: float = 1e-6, most: int = 5000, done=None
) -> int:
    """Iterations of preconditioned CG from 0 until `done(residual)` (by default: every entry
    within `tolerance` of the right-hand side's largest), `most` if never."""
    x, r = np.zeros_like(rhs), rhs.copy()
    z = precondition(r)
    p, fit, limit = z.copy(), r @ z, tolerance * np.abs(rhs).max()
    if done is None:
        done = lambda residual: np.abs(residual).max() <= limit  # noqa: E731
    for k in range(most):
        if done(r):
            return k
        product = system @ p
        step = fit / (p @ product)
        x += step * p
        r -= step * product
        z = precondition(r)
        fit, last = r @ z, fit
        p = z + fit / last * p
    return most


def compare_preconditioners(size: int, seconds: float) -> str:
    """CG on the moving sheet's links' system: preconditioned by its diagonal, by the rest
    state's system factored, and by the same applied through the particles (LinksInverse)."""
    rest = clamped_sheet(size, LINKS_THEN_PASSES)
    started = time.perf_counter()
    factor = Factor(links_system(rest))
    factored = time.perf_counter() - started
    g, rows, alpha = links_parts(rest)
    started = time.perf_counter()
    inverse = constraint_sets.LinksInverse(g, rest.fixed.inv_mass, alpha, rows)
    through = time.perf_counter() - started
    moving = clamped_sheet(size, LINKS_THEN_PASSES)
    moving.step(round(seconds / moving.settings.dt))
    system = links_system(moving)
    rhs = np.random.default_rng(0).standard_normal(system.shape[0])
    inverse_diagonal = 1.0 / system.diagonal()

    def solved(r: np.ndarray) -> np.ndarray:
        out = np.zeros_like(r)
        factor.solve(np.ascontiguousarray(r), out)
        return out

    def solved_through_particles(r: np.ndarray) -> np.ndarray:
        full, out = np.zeros(len(rows)), np.zeros(len(rows))
        full[rows] = r
        inverse.solve(full, out)
        return out[rows]

    figures = []
    for precondition in (lambda r: inverse_diagonal * r, solved, solved_through_particles):
        started = time.perf_counter()
        count = conjugate_gradients(system, rhs, precondition)
        figures.append(f"{count:>6} {1000 * (time.perf_counter() - started):>8.1f}")
    return (
        f"{size:>4}² {system.shape[0]:>7} {'  '.join(figures)}  {1000 * factored:>8.1f} "
        f"{1000 * through:>8.1f}"
    )


def statics() -> None:
    """What the projective solve gets right and wrong at rest: a strip's stretch, which is along
    the cloth, for shear below and far above stretch; and a cantilever's droop, which turns it."""
    print("a 1 m strip, k = 40 N/m, settled 3 s: elongation / ρgL²/2k")
    for shear in (56.0, 4.0e4):
        material = SI_FABRICS["cotton"].with_values(
            stretch_warp=40.0, stretch_weft=40.0, shear=shear
        )
        scene = textile.hanging_strip_scene(SIMaterialSpec.of("custom", material), length=1.0)
        expected = material.areal_density * G * scene.bodies[0].height ** 2 / (2 * 40.0)
        ratios = []
        for solver in (LINKS_THEN_PASSES, PROJECTIVE):
            sim = textile.settle(with_settings(scene, {"fabric_solver": solver}), 3.0)
            ratios.append(f"{elongation(sim) / expected:.4f}")
        print(f"  G {shear:>7g} N/m: links {ratios[0]}, projective {ratios[1]}", flush=True)
    c = SI_FABRICS["cotton"].bending_length(G)
    scene = textile.cantilever_scene("cotton", c, 80)
    print("a cotton cantilever, 80 segments, one bending length over the edge, settled 3 s:")
    LinksTogether.shapes_too = False
    started = time.perf_counter()
    passes = textile.settle(scene, 3.0)
    took = time.perf_counter() - started
    reference, needed = tip_drop(passes), passes.model_settings.substeps
    LinksTogether.shapes_too = True
    print(f"  links solved, bending by passes at {needed} substeps (the runs' need): tip drop "
          f"{1000 * reference:.3f} mm, {took:.1f} s")  # fmt: skip
    for substeps in (1, 4, 16):
        for name, solver in (("links and bending", LINKS_THEN_PASSES), ("projective", PROJECTIVE)):
            changes = {"fabric_solver": solver, "substeps": substeps}
            started = time.perf_counter()
            sim = textile.settle(with_settings(scene, changes), 3.0)
            took = time.perf_counter() - started
            off = 100 * (tip_drop(sim) - reference) / c
            ran = sim.model_settings.substeps
            print(
                f"  {name:>17}, {substeps:>2} substeps (runs {ran:>2}): {off:+.2f} % of the "
                f"overhang from it, {took:.1f} s",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", action="append", type=int, help="N for N × N (32, 64, 128)")
    parser.add_argument("--seconds", type=float, default=0.5, help="model time measured")
    parser.add_argument("--settle", type=float, default=3.0, help="model time to rest")
    parser.add_argument("--part", choices=("sheet", "system", "statics", "drape"),
                        action="append", help="what to measure (default: all four)")  # fmt: skip
    parser.add_argument("--candidate", choices=list(CANDIDATES), action="append",
                        help="the sheet's candidates (default: all)")  # fmt: skip
    parser.add_argument("--substeps", type=int, action="append",
                        help="the drape's substeps (default 16 and 4)")  # fmt: skip
    parser.add_argument("--state", choices=("moving", "at rest"), action="append",
                        help="the sheet's states (default: both)")  # fmt: skip
    args = parser.parse_args()
    parts = args.part or ["sheet", "system", "statics", "drape"]
    grids = args.grid or [32, 64, 128]
    if "sheet" in parts:
        names, states = args.candidate or list(CANDIDATES), args.state or ["moving", "at rest"]
        compare_solvers(grids, args.seconds, args.settle, names, states)
    if "system" in parts:
        print("\nthe links' system alone, at the moving state: CG to 1e-6, iterations and ms; "
              "preconditioned by its diagonal, by the rest state's system factored, and by the "
              "same through the particles; the two factorisations' ms")  # fmt: skip
        print(f"{'grid':>5} {'links':>7} {'diag':>6} {'ms':>8}  {'LLᵀ':>6} {'ms':>8}  "
              f"{'P':>6} {'ms':>8}  {'LLᵀ ms':>8} {'P ms':>8}")  # fmt: skip
        for size in grids:
            print(compare_preconditioners(size, args.seconds), flush=True)
    if "statics" in parts:
        statics()
    if "drape" in parts:
        compare_on_drape(args.seconds, args.substeps or [16, 4])


def compare_solvers(
    grids: list[int], seconds: float, settle: float, names: list[str], states: list[str]
) -> None:
    steps = round(seconds * 120)
    print(f"cotton, clamped top corners, {seconds:g} s measured; × real time, iterations "
          f"(median, largest), unbalanced force / weight (median), sag mm")  # fmt: skip
    print(f"{'grid':>5} {'state':>7} {'candidate':>22} {'real':>8} {'med':>5} {'max':>5} "
          f"{'LLᵀ':>5} {'residual':>10} {'sag':>8}")  # fmt: skip
    for size in grids:
        settled = clamped_sheet(size, LINKS_THEN_PASSES)
        if "at rest" in states:
            settled.step(round(settle / settled.settings.dt))
        for name in names:
            solver = switched(name)
            for state in states:
                sim = clamped_sheet(size, solver)
                if state == "at rest":
                    sim.state.x[:], sim.state.x_prev[:] = settled.state.x, settled.state.x_prev
                    sim.step(round(RESTING_S / sim.settings.dt))
                print(f"{size:>4}² {state:>7} {name:>22} {run(sim, steps)}", flush=True)
        switched_back()


def compare_on_drape(seconds: float, substeps_tried: list[int]) -> None:
    """The drape specimen's first `seconds`, links factored (by either rule) and by multigrid,
    side by side."""
    print(f"\ndenim drape specimen, 61 across, the first {seconds:g} s; × real time, iterations "
          "of each step's last substep (median, largest), factors or coarse levels made, and "
          "the largest distance between the two candidates' particles")  # fmt: skip
    print(f"{'substeps':>8} {'candidate':>22} {'real':>8} {'med':>5} {'max':>5} {'made':>5}")
    for substeps in substeps_tried:
        ends = []
        for name in (
            "links, factored",
            "links, factored, by excess",
            "links, multigrid alone",
            "links, multigrid",
        ):
            scene = textile.cusick_drape_scene(SIMaterialSpec.of("denim", SI_FABRICS["denim"]), 61)
            settings = {"specimen": 1, "substeps": substeps, "fabric_solver": switched(name)}
            sim = build_simulation(with_settings(scene, settings))
            sim.step(1)  # compiles, and makes the first factor or coarse levels
            solver = solver_of(sim)
            counts, made = [], solver.factorisations
            started = time.perf_counter()
            for _ in range(round(seconds / sim.settings.dt)):
                if sim.step(1) != 1:
                    print(f"{substeps:>8} {name:>22} blew up: {sim.instability}")
                    break
                counts.append(solver.iterations)
            else:
                took = time.perf_counter() - started
                real = len(counts) * sim.settings.dt / took
                made = solver.factorisations - made
                print(f"{substeps:>8} {name:>22} {real:7.3f}× {int(np.median(counts)):5d} "
                      f"{max(counts):5d} {made:5d}", flush=True)  # fmt: skip
                ends.append(sim.state.x.copy())
        switched_back()
        if len(ends) >= 2:
            print(f"{'':>8} apart by {1000 * np.abs(ends[0] - ends[1]).max():.3g} mm")


if __name__ == "__main__":
    main()
