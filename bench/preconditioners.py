"""Preconditioners for the fabric's solve, side by side on the solver's own systems.

The default fabric solve (LinksTogether) solves the linearised XPBD system of the links, the
cells' shear rows and the shapes in the multipliers ("dual"): (G·W·Gᵀ + α̃)·y = r. By
Woodbury's identity the same answer comes from the particles' system ("primal"):
P·u = Gᵀ·α̃⁻¹·r with P = W⁻¹ + Gᵀ·α̃⁻¹·G, then y = α̃⁻¹·(r − G·u), and the dual residual of
that y is G·W·(the primal residual). So every candidate below is stopped by the same test:
the dual residual within 10⁻⁶ of the right-hand side's largest entry (a random one).

A cotton sheet 2.8 × 2 m held by a 20 cm clamp at each top corner (bench/fabric_solvers.py)
is run `--seconds` from flat ("moving"), and from the state it settled in `--settle` s ("at
rest"); the system is the one its last substep solved. Conjugate gradients preconditioned by:

dual
* `diagonal`: the system's diagonal (as the solver did before it was factored);
* `chains`: every warp row's and weft column's links as one chain, its tridiagonal block
  solved exactly, the cells' rows by their diagonal (block Jacobi);
* `chains SGS`: the same blocks in one symmetric block Gauss–Seidel sweep;
* `factor, lagged`: the system factored `--lag` s earlier (the default solver's inverse,
  which it keeps until it turns stale);
primal
* `diagonal`: P's diagonal;
* `multigrid`: one V-cycle of geometric multigrid on the sheet's grid: bilinear transfer
  2:1 down to 8 × 8, coarse systems Pᵀ·A·P (Galerkin), smoothed by line Gauss–Seidel along
  the warp rows then the weft columns (each line's 3 × 3-block band solved exactly) and back,
  the coarsest factored;
* `multigrid, lagged`: the coarse levels made `--lag` s earlier, the finest level's smoother
  made at the state;
* `aggregation`: one V-cycle of smoothed-aggregation algebraic multigrid (pyamg's
  `smoothed_aggregation_solver`, its defaults but for 3 × 3 blocks, the x, y and z rigid
  modes, symmetric block Gauss–Seidel and a coarsest level of 300; needs `pip install
  pyamg`, else "n/a").

It prints iterations only: the chains and multigrid here are scipy prototypes (their
milliseconds measure Python, not the method); a candidate that does not reach the tolerance
in 2 000 iterations prints "—".

    .venv/bin/python bench/preconditioners.py [--grid 32 --grid 64 ...] [--seconds 0.5]
        [--settle 3] [--lag 0.05] [--state moving|'at rest' ...]
    .venv/bin/python bench/preconditioners.py --drape denim [--substeps 16 --substeps 4]
        [--seconds 0.1]

With --drape, the drape check's specimen of that fabric (61 across, its bending and twist in
the solve) at each number of substeps, `--seconds` after its start, the lagged candidates made
one step earlier.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
import scipy.sparse as sparse
import scipy.sparse.linalg as linalg
from fabric_solvers import clamped_sheet, conjugate_gradients

from clothlab.sim.core import constraint_sets
from clothlab.sim.core.constraint_sets import LinksTogether
from clothlab.sim.core.materials import SI_FABRICS
from clothlab.sim.core.parameters import LINKS_THEN_PASSES
from clothlab.sim.core.solver import Simulation
from clothlab.sim.document.scene import SIMaterialSpec, build_simulation, with_settings
from clothlab.sim.lab import textile

MOST = 2000
HEADER = (
    f"{'':>13} {'rows':>8} {'coords':>7} {'diagonal':>9} {'chains':>9} {'chainSGS':>9} "
    f"{'factor,l':>9} | {'diagonal':>9} {'multigrid':>9} {'mg,l':>9} {'aggreg.':>9}"
)
Apply = Callable[[np.ndarray], np.ndarray]


class Systems:
    """The dual and primal systems of a simulation's last fabric solve."""

    def __init__(self, sim: Simulation) -> None:
        together = next(c.together for c in sim._extended._active if getattr(c, "together", 0))
        assert isinstance(together, LinksTogether)
        n, links = len(sim.state.x), sim.links
        self.g = sparse.vstack([
            constraint_sets.links_gradient(together.gradient, links.a, links.b, n),
            constraint_sets.rows_gradient(together._shear.cells, together.shear_gradient, n),
            together._rows.matrix,
        ]).tocsr()  # fmt: skip
        self.rows = together.inverse_diagonal > 0.0
        self.link_count = len(links.a)
        self.alpha = np.where(self.rows, together.alpha, 1.0)
        inv_mass = sim.fixed.inv_mass
        self.dual = constraint_sets.together_system(self.g, inv_mass, together.alpha, self.rows)
        self.free = np.repeat(inv_mass > 0.0, 3)
        self.w = sparse.diags(np.repeat(inv_mass, 3))
        g = sparse.diags(self.rows.astype(float)) @ self.g @ sparse.diags(self.free * 1.0)
        self.g_rows = g.tocsr()
        masses = np.where(self.free, 1.0 / np.where(self.free, np.repeat(inv_mass, 3), 1.0), 1.0)
        self.primal = (g.T @ sparse.diags(1.0 / self.alpha) @ g + sparse.diags(masses)).tocsr()


def dual_cg(systems: Systems, rhs: np.ndarray, precondition: Apply) -> int:
    return conjugate_gradients(systems.dual, rhs, precondition, most=MOST)


def primal_cg(systems: Systems, rhs: np.ndarray, precondition: Apply) -> int:
    """CG on P·u = Gᵀ·α̃⁻¹·r, stopped by the dual residual of y = α̃⁻¹·(r − G·u), G·W·(its
    residual)."""
    g, limit = systems.g_rows, 1e-6 * np.abs(rhs).max()
    b = g.T @ (systems.rows / systems.alpha * rhs)

    def done(residual: np.ndarray) -> bool:
        return np.abs(g @ (systems.w @ residual)).max() <= limit

    return conjugate_gradients(systems.primal, b, precondition, most=MOST, done=done)


def chains(sim: Simulation) -> np.ndarray:
    """(L,) int: each link's chain, the links that continue one another in a straight line at
    rest (a warp row's, a weft column's)."""
    a, b, x = sim.links.a, sim.links.b, sim.topology.rest_positions
    d = x[b] - x[a]
    d /= np.linalg.norm(d, axis=1)[:, None]
    ends = np.concatenate([a, b])
    away = np.concatenate([d, -d])  # each link's direction leaving each of its ends
    link = np.concatenate([np.arange(len(a)), np.arange(len(a))])
    graph = sparse.lil_matrix((len(a), len(a)))
    by_end = np.argsort(ends, kind="stable")
    starts = np.searchsorted(ends[by_end], np.arange(len(x) + 1))
    for p in range(len(x)):
        here = by_end[starts[p] : starts[p + 1]]
        straight = away[here] @ away[here].T < -0.999
        for i, j in zip(*np.nonzero(np.triu(straight)), strict=True):
            graph[link[here[i]], link[here[j]]] = 1
    return sparse.csgraph.connected_components(graph.tocsr(), directed=False)[1]


def block_sweeps(matrix: sparse.spmatrix, group: np.ndarray, order: np.ndarray):
    """The blocks of `matrix` whose rows share a `group`, its rows taken in `order`: solves of
    the block diagonal D, and of (D + L) and (D + U) over the order."""
    inverse = np.argsort(order)
    ordered = matrix.tocsr()[order][:, order].tocoo()
    same = group[order][ordered.row] == group[order][ordered.col]

    def factored(keep: np.ndarray):
        kept = sparse.csc_matrix(
            (ordered.data[keep], (ordered.row[keep], ordered.col[keep])), shape=ordered.shape
        )
        lu = linalg.splu(kept)
        return lambda r: lu.solve(r[order])[inverse]

    lower, upper = ordered.row > ordered.col, ordered.row < ordered.col
    return factored(same), factored(same | lower), factored(same | upper)


def chain_preconditioners(sim: Simulation, systems: Systems) -> tuple[Apply, Apply]:
    rows = len(systems.rows)
    group = np.arange(rows) + rows  # every other row a block of its own
    group[: systems.link_count] = chains(sim)
    order = np.lexsort((np.arange(rows), group))
    jacobi, forward, backward = block_sweeps(systems.dual, group, order)
    a = systems.dual

    def symmetric(r: np.ndarray) -> np.ndarray:
        z = forward(r)
        return z + backward(r - a @ z)

    return jacobi, symmetric


class Multigrid:
    """A V-cycle on a sheet's grid (see the module's docstring); `coarse_from` lends its
    coarse levels (made earlier) to this one's finest."""

    COARSEST = 8

    def __init__(self, primal: sparse.csr_matrix, grid: np.ndarray, coarse_from=None) -> None:
        self.levels: list[tuple[sparse.csr_matrix, list]] = []
        self.transfers: list[sparse.csr_matrix] = []
        a = primal
        while max(grid.max(axis=0) + 1) > self.COARSEST:
            self.levels.append((a, [self._line_sweeps(a, grid, axis) for axis in (0, 1)]))
            coarse = (grid.max(axis=0) + 1) // 2 + 1
            transfer = self._bilinear(grid, coarse)
            used = np.asarray(transfer.sum(axis=0)).ravel()[::3] > 0  # a disc's: not its corners
            transfer = transfer[:, np.repeat(used, 3)].tocsr()
            self.transfers.append(transfer)
            a = (transfer.T @ a @ transfer).tocsr()
            grid = np.indices(coarse).reshape(2, -1).T[used]
        self.coarsest = linalg.splu(a.tocsc())
        if coarse_from is not None:
            self.levels[1:], self.coarsest = coarse_from.levels[1:], coarse_from.coarsest

    @staticmethod
    def _line_sweeps(a: sparse.csr_matrix, grid: np.ndarray, axis: int):
        line = np.repeat(grid[:, 1 - axis], 3)
        along = 3 * np.repeat(grid[:, axis], 3) + np.tile(np.arange(3), len(grid))
        _, forward, backward = block_sweeps(a, line, np.lexsort((along, line)))
        return forward, backward

    @staticmethod
    def _bilinear(grid: np.ndarray, coarse: np.ndarray) -> sparse.csr_matrix:
        rows, columns, weights = [], [], []
        for corner in ((0, 0), (0, 1), (1, 0), (1, 1)):
            low = grid // 2
            part = np.where(corner, grid % 2 * 0.5, 1.0 - grid % 2 * 0.5).prod(axis=1)
            node = np.minimum(low + corner, coarse - 1)
            for k in range(3):
                rows.append(3 * np.arange(len(grid)) + k)
                columns.append(3 * (node[:, 0] * coarse[1] + node[:, 1]) + k)
                weights.append(part)
        shape = (3 * len(grid), 3 * int(coarse.prod()))
        return sparse.csr_matrix(
            (np.concatenate(weights), (np.concatenate(rows), np.concatenate(columns))), shape
        )

    def __call__(self, r: np.ndarray, level: int = 0) -> np.ndarray:
        if level == len(self.levels):
            return self.coarsest.solve(r)
        a, ((warp, warp_back), (weft, weft_back)) = self.levels[level]
        z = warp(r)
        z += weft(r - a @ z)
        transfer = self.transfers[level]
        z += transfer @ self(transfer.T @ (r - a @ z), level + 1)
        z += weft_back(r - a @ z)
        return z + warp_back(r - a @ z)


def aggregation(primal: sparse.csr_matrix) -> Apply | None:
    """One V-cycle of pyamg's smoothed aggregation on the primal system (None: no pyamg)."""
    try:
        import pyamg
    except ImportError:
        return None
    smoother = ("block_gauss_seidel", {"blocksize": 3, "sweep": "symmetric"})
    modes = np.kron(np.ones((primal.shape[0] // 3, 1)), np.eye(3))
    solver = pyamg.smoothed_aggregation_solver(
        primal, B=modes, max_coarse=300, presmoother=smoother, postsmoother=smoother
    )
    return solver.aspreconditioner(cycle="V").matvec


def grid_of(sim: Simulation, size: int) -> np.ndarray:
    """(N, 2) int: each particle's place on the sheet's grid, from its rest position."""
    x = sim.topology.rest_positions
    span = x.max(axis=0) - x.min(axis=0)
    plane = np.argsort(span)[-2:]
    return np.rint((x[:, plane] - x.min(axis=0)[plane]) / span[plane] * (size - 1)).astype(int)


def figures(sim: Simulation, grid: np.ndarray, lag: int) -> str:
    """The candidates' iterations on the system of `sim`'s last solve, `lag` steps on."""
    earlier = Systems(sim)
    sim.step(lag)
    systems = Systems(sim)
    rhs = np.random.default_rng(0).standard_normal(len(systems.rows)) * systems.rows
    jacobi, symmetric = chain_preconditioners(sim, systems)
    factor = linalg.splu(earlier.dual.tocsc())
    multigrid = Multigrid(systems.primal, grid)
    lagged_multigrid = Multigrid(systems.primal, grid, Multigrid(earlier.primal, grid))
    counts = [
        dual_cg(systems, rhs, lambda r: r / systems.dual.diagonal()),
        dual_cg(systems, rhs, jacobi),
        dual_cg(systems, rhs, symmetric),
        dual_cg(systems, rhs, factor.solve),
        primal_cg(systems, rhs, lambda r: r / systems.primal.diagonal()),
        primal_cg(systems, rhs, multigrid),
        primal_cg(systems, rhs, lagged_multigrid),
    ]
    algebraic = aggregation(systems.primal)
    counts.append(-1 if algebraic is None else primal_cg(systems, rhs, algebraic))
    shown = [f"{'n/a' if c < 0 else c if c < MOST else '—':>9}" for c in counts]
    return f"{len(systems.rows):>8} {systems.primal.shape[0]:>7} " + " ".join(shown)


def drape(fabric: str, substeps: int, seconds: float) -> str:
    """The row of the drape check's specimen (61 across, the fabric's shapes in the solve) at
    `substeps`, `seconds` from its start, each lagged candidate made one step earlier."""
    scene = textile.cusick_drape_scene(SIMaterialSpec.of(fabric, SI_FABRICS[fabric]), 61)
    sim = build_simulation(with_settings(scene, {"specimen": 1, "substeps": substeps}))
    sim.step(round(seconds / sim.settings.dt) - 1)
    return figures(sim, sim.topology.discs[0].cell_ij.astype(int), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", action="append", type=int, help="N for N × N (32 … 256)")
    parser.add_argument("--seconds", type=float, default=0.5, help="model time moving")
    parser.add_argument("--settle", type=float, default=3.0, help="model time to rest")
    parser.add_argument("--lag", type=float, default=0.05, help="how much earlier a lagged one")
    parser.add_argument("--state", choices=("moving", "at rest"), action="append",
                        help="which states (default: both)")  # fmt: skip
    parser.add_argument("--drape", metavar="FABRIC", help="the drape specimen instead")
    parser.add_argument("--substeps", type=int, action="append", help="the drape's (16, 4)")
    args = parser.parse_args()
    if args.drape:
        print(f"{args.drape}, drape specimen 61 across, {args.seconds:g} s in; CG iterations to a "
              "dual residual of 1e-6")  # fmt: skip
        print(HEADER)
        for substeps in args.substeps or [16, 4]:
            print(f"{substeps:>3} substeps {drape(args.drape, substeps, args.seconds)}", flush=True)
        return
    print("cotton sheet, clamped top corners; CG iterations to a dual residual of 1e-6")
    print(HEADER)
    seconds = {"moving": args.seconds, "at rest": args.settle}
    for size in args.grid or [32, 64, 128, 256]:
        for state in args.state or list(seconds):
            sim = clamped_sheet(size, LINKS_THEN_PASSES)
            lag = round(args.lag / sim.settings.dt)
            sim.step(round(seconds[state] / sim.settings.dt) - lag)
            grid = grid_of(sim, size)
            print(f"{size:>4}² {state:>7} {figures(sim, grid, lag)}", flush=True)


if __name__ == "__main__":
    main()
