"""What the model shows about itself, declared once.

Each readout is one row of `READOUTS`: key, label, unit, the factor the panels show it with,
when it applies, how the panel shows it, and the function that measures it on a simulation. The
`Readouts` record, the Qt-free `ReadoutHistory`, the CSV written by `clothlab run --csv` and by
the app, the Readouts panel, the names questions, sweeps and compares accept and the API's
columns are all derived from the table: adding a readout is one row plus one function.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import math
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

import numpy as np

from clothlab.sim.core import kernels, probes, specimens, units
from clothlab.sim.text import QT_TR_NOOP

if TYPE_CHECKING:  # readouts read a simulation; the solver imports this module, not back
    from clothlab.sim.core.solver import Simulation
    from clothlab.sim.core.topology import Topology


@dataclass(frozen=True)
class Passes:
    """What several readouts read, measured once for them all: one pass over the particles'
    speeds |x − x_prev| / h, h = Δt / substeps (x_prev is one substep back: motion is their mean,
    max_speed the fastest), one over the links (max_stretch, residual) and the energies that
    total_energy and solver_loss add up."""

    mean_speed: float  # units/s
    fastest: float  # units/s
    kinetic: float
    potential: float
    max_stretch: float  # fraction
    residual: float  # fraction

    @property
    def total(self) -> float:
        return self.kinetic + self.potential


def passes(sim: Simulation) -> Passes:
    s = sim.model_settings
    mean, fastest = kernels.speeds(sim.state.x, sim.state.x_prev, s.dt / s.substeps)
    stretch, residual = sim.link_measures()
    return Passes(mean, fastest, kinetic_energy(sim), potential_energy(sim), stretch, residual)


# A readout's function gets the simulation and the passes, made once for all readouts.
Measure = Callable[["Simulation", Passes], float]
# Whether a readout means anything for a scene: (topology, pinned particle indices) → bool.
Applies = Callable[["Topology", Collection[int]], bool]


@dataclass(frozen=True)
class Readout:
    key: str
    label: str
    unit: str  # of the value as measured, in the model's spelling (sim.core.units)
    measure: Measure
    tooltip: str
    shown_unit: str = ""  # the panels' unit in either system, when they scale the value (%)
    shown_scale: float = 1.0
    si_shown_unit: str = ""  # the panels' unit in SI runs only, when they scale the value (cm)
    si_shown_scale: float = 1.0
    # whether it means anything for a scene: (topology, pinned particle indices) → bool
    applies: Applies = lambda _topology, _pins: True
    plotted: bool = True  # counts (integer) that are not plotted show under the plots
    integer: bool = False
    plot_with: str = ""  # drawn as a second curve on this readout's plot, not a plot of its own
    curve: str = ""  # its curve's name in the legend of a plot with more than one


def of_simulation(function: Callable[[Simulation], float]) -> Measure:
    """A readout measured on the simulation alone (most are)."""
    return lambda sim, _passes: function(sim)


def hangs_from_top_corners(topology: Topology, pins: Collection[int]) -> bool:
    """Sag is about the first sheet hanging from its two top corners with its top edge free
    between them (a top edge pinned all along cannot sag)."""
    if not topology.sheets:
        return False
    sheet = topology.sheets[0]
    top = set(range(sheet.first_particle, sheet.first_particle + sheet.cols))
    pinned = top & set(pins)
    return {min(top), max(top)} <= pinned and pinned != top


def sag(sim: Simulation) -> float:
    """Distance from the line through the first sheet's top corners to its lowest top-edge
    particle; NaN without a sheet."""
    if not sim.topology.sheets:
        return math.nan
    sheet = sim.topology.sheets[0]
    top = sim.state.x[sheet.first_particle : sheet.first_particle + sheet.cols]
    a, b = top[0], top[-1]
    lowest = top[np.argmin(top[:, 1])]
    axis = b - a
    length = np.linalg.norm(axis)
    if length == 0.0:
        return float(np.linalg.norm(lowest - a))
    return float(np.linalg.norm(np.cross(lowest - a, axis)) / length)


def live_strains(sim: Simulation) -> np.ndarray:
    """Each live link's strain, (L − rest)/rest, in the topology's order: (live,) float64."""
    topology = sim.topology
    strain = np.empty(topology.link_count)
    kernels.link_strains(sim.state.x, topology.links, topology.rest_lengths, strain)
    return strain[sim.state.link_alive]


def volume(sim: Simulation) -> float:
    """The soft blocks' volume, six tetrahedra per cube; NaN without a block."""
    if not sim.topology.blocks:
        return math.nan
    return float(sum(kernels.cells_volume(sim.state.x, b.cells) for b in sim.topology.blocks))


def kinetic_energy(sim: Simulation) -> float:
    """½ Σ m v², v over the last substep as for motion; m is 1 per particle in model units,
    or in kg where a body has an SI material."""
    s = sim.model_settings
    v = sim.state.x - sim.state.x_prev
    v /= s.dt / s.substeps  # in place: one (N, 3) array fewer, the same bits
    if sim.mechanics.any:
        return 0.5 * float(np.einsum("i,ij,ij->", sim.mechanics.mass, v, v))
    return 0.5 * float(np.einsum("ij,ij->", v, v))


def potential_energy(sim: Simulation) -> float:
    """Σ m·g·y from y = 0, at the last substep's midpoint (as for KE), m as for KE."""
    state, gravity = sim.state, sim.settings.gravity
    if sim.mechanics.any:
        middle = 0.5 * (state.x[:, 1] + state.x_prev[:, 1])
        return gravity * float(np.dot(sim.mechanics.mass, middle))
    return kernels.potential_energy(state.x, state.x_prev, gravity)


# --- energy taken out by the last step ------------------------------------------------------


@dataclass(frozen=True)
class EnergyAccount:
    """What the last step did to the energy, as far as it is known before the step runs."""

    steps: int  # state.steps after the step it is about; −1 before the step is taken
    energy_before: float  # KE + PE of the state the step started from
    damping_loss: float  # taken out by the predict's damping
    wind_work: float  # put in by the classic gusting wind
    exact: bool  # one predict with the classic accelerations: the figures are exact


def account_for_next_step(sim: Simulation) -> EnergyAccount:
    """Measured on the state a step starts from. The predict's damping and wind are known in
    closed form from it (kernels.predict_energy); with substeps, or aerodynamic wind, the
    inner substeps are not seen: the first substep's figures × substeps, an estimate."""
    s, state = sim.model_settings, sim.state
    world = s.world(state.t, s.dt / s.substeps)
    if s.aerodynamic:  # aerodynamic forces replace the gusting wind
        world = world._replace(wind=0.0)
    particles = sim.fixed.particles(state.x, state.x_prev)
    energy, damped, blown = kernels.predict_energy(particles, sim.mechanics.mass, world)
    exact = s.substeps == 1 and not s.aerodynamic
    return EnergyAccount(-1, energy, damped * s.substeps, blown * s.substeps, exact)


def _last_step(sim: Simulation) -> EnergyAccount | None:
    """The account of the step that led to the state as it stands, if there is one. At step 0
    (a run's first row, or a blow-up recovered to the start) no step has taken anything out."""
    account = sim.energy_account
    if account is not None and account.steps == sim.state.steps:
        return account
    if sim.state.steps == 0:
        return EnergyAccount(0, kinetic_energy(sim) + potential_energy(sim), 0.0, 0.0, exact=True)
    return None


def damping_loss(sim: Simulation) -> float:
    account = _last_step(sim)
    return math.nan if account is None else account.damping_loss


def wind_work(sim: Simulation) -> float:
    account = _last_step(sim)
    return math.nan if account is None else account.wind_work


def solver_loss(sim: Simulation, measured: Passes) -> float:
    """The rest of the last step's energy change: ΔKE + ΔPE = wind work − damping loss −
    solver loss, so it is what links, collisions, pins and the grab took out (< 0: put in)."""
    account = _last_step(sim)
    if account is None:
        return math.nan
    change = measured.total - account.energy_before
    return account.wind_work - account.damping_loss - change


def pin_force(sim: Simulation) -> float:
    """|Σ of the pins' forces on the cloth|; NaN before a step has measured it."""
    forces = sim.forces()
    if forces is None or not len(forces.pin_force):
        return math.nan
    return float(np.linalg.norm(forces.pin_total))


def max_tension(sim: Simulation) -> float:
    forces = sim.forces()
    return math.nan if forces is None else forces.max_tension


def contact_force(sim: Simulation) -> float:
    forces = sim.forces()
    return math.nan if forces is None else forces.contact_total


def live_links(sim: Simulation) -> float:
    return int(np.count_nonzero(sim.state.link_alive))


def live_faces(sim: Simulation) -> float:
    return int(np.count_nonzero(sim.state.face_alive))


def _holds(find: Callable[[Topology, np.ndarray], object]) -> Applies:
    """Whether the scene holds the specimen `find` (sim.core.specimens) recognises."""

    def applies(topology: Topology, pins: Collection[int]) -> bool:
        return find(topology, np.array(sorted(pins), dtype=np.int32)) is not None

    return applies


_has_cantilever = _holds(specimens.find_cantilever)
_has_hanging_strip = _holds(specimens.find_hanging_strip)
_has_drape_specimen = _holds(specimens.find_drape)


ROW = "row"  # a Readouts field's metadata: its READOUTS row, less its key


def readout(label: str, unit: str, measure: Measure, tooltip: str, **options: Any) -> Any:
    """A Readouts field and its row of READOUTS (Readout's fields after the key, in its
    order; `options` the rest): its key is the field's name, so a readout is declared once."""
    row = {"label": label, "unit": unit, "measure": measure, "tooltip": tooltip, **options}
    return dataclasses.field(metadata={ROW: row})


@dataclass(frozen=True)
class Readouts:
    """The readouts at one moment, the model time and one field a readout, each declared with
    its row of READOUTS (`readout`; READOUTS is made of them). NaN where a readout does not
    apply. The readouts' functions are the module's: a field's name is bound in this body
    only once its own row has been made."""

    t: float  # model time, s
    sag: float = readout(
        QT_TR_NOOP("Sag"),
        "units",
        of_simulation(sag),
        QT_TR_NOOP(
            "Distance from the line between the top corners down to the lowest top-edge particle."
        ),
        applies=hangs_from_top_corners,
    )
    volume: float = readout(
        QT_TR_NOOP("Volume"),
        "units³",
        of_simulation(volume),
        QT_TR_NOOP(
            "Volume of the soft block (its cubes as six tetrahedra each); rest volume 0.512."
        ),
        applies=lambda topology, _pins: bool(topology.blocks),
    )
    motion: float = readout(
        QT_TR_NOOP("Motion"),
        "units/s",
        lambda _sim, measured: measured.mean_speed,
        QT_TR_NOOP("Mean particle speed |x − x_prev| / Δt."),
        curve=QT_TR_NOOP("mean"),
    )
    max_speed: float = readout(
        QT_TR_NOOP("Fastest particle"),
        "units/s",
        lambda _sim, measured: measured.fastest,
        QT_TR_NOOP(
            "Speed of the fastest particle, |x − x_prev| / Δt (Motion is the mean of the same "
            "speeds)."
        ),
        plot_with="motion",
        curve=QT_TR_NOOP("fastest"),
    )
    max_stretch: float = readout(
        QT_TR_NOOP("Max stretch"),
        "fraction",
        lambda _sim, measured: measured.max_stretch,
        QT_TR_NOOP("Largest (L − rest) / rest over live links: the error the passes leave."),
        shown_unit="%",
        shown_scale=100.0,
    )
    residual: float = readout(
        QT_TR_NOOP("Residual"),
        "fraction",
        lambda _sim, measured: measured.residual,
        QT_TR_NOOP(
            "How far the solver is from converged: max |C + α̃λ| / rest over live links (XPBD), "
            "max |L − rest| / rest with the classic rule. More passes or substeps lower it."
        ),
        shown_unit="%",
        shown_scale=100.0,
        plotted=False,
    )
    kinetic_energy: float = readout(
        QT_TR_NOOP("Kinetic energy"),
        "mass·units²/s²",
        lambda _sim, measured: measured.kinetic,
        QT_TR_NOOP("½ Σ m v² over all particles: mass 1 each, or in kg with SI fabrics."),
        plotted=False,
    )
    potential_energy: float = readout(
        QT_TR_NOOP("Potential energy"),
        "mass·units²/s²",
        lambda _sim, measured: measured.potential,
        QT_TR_NOOP(
            "Σ m·g·y over all particles (mass 1 each, or in kg with SI fabrics), from y = 0; y "
            "midway through the last step."
        ),
        plotted=False,
    )
    total_energy: float = readout(
        QT_TR_NOOP("Energy"),
        "mass·units²/s²",
        lambda _sim, measured: measured.total,
        QT_TR_NOOP("Kinetic + potential energy. What the damping, the solver and the wind change."),
    )
    damping_loss: float = readout(
        QT_TR_NOOP("Damping loss"),
        "mass·units²/s² per step",
        of_simulation(damping_loss),
        QT_TR_NOOP("Energy the Verlet damping took out in the last step."),
        plotted=False,
    )
    wind_work: float = readout(
        QT_TR_NOOP("Wind work"),
        "mass·units²/s² per step",
        of_simulation(wind_work),
        QT_TR_NOOP(
            "Energy the gusting wind put in during the last step (aerodynamic wind: counted in "
            "the solver loss)."
        ),
        plotted=False,
    )
    solver_loss: float = readout(
        QT_TR_NOOP("Solver loss"),
        "mass·units²/s² per step",
        solver_loss,
        QT_TR_NOOP(
            "Energy the links, collisions, pins and grab took out in the last step (< 0: put in)."
        ),
        plotted=False,
    )
    pin_force: float = readout(
        QT_TR_NOOP("Pin force"),
        units.FORCE,
        of_simulation(pin_force),
        QT_TR_NOOP(
            "Net force the pins hold the cloth with (|Σ|): what every constraint pulls them with, "
            "from what the solver moved, and their own particles' weight. At rest, with nothing "
            "else touching, it is the cloth's weight."
            " In N with SI fabrics; in model units (mass 1 a particle) otherwise."
        ),
        applies=lambda _topology, pins: bool(pins),
        curve=QT_TR_NOOP("pins"),
    )
    max_tension: float = readout(
        QT_TR_NOOP("Max tension"),
        units.FORCE,
        of_simulation(max_tension),
        QT_TR_NOOP(
            "The largest pull of any one link on its ends, from what the solver moved over the "
            "last step (the tension map colours every link by it)."
            " In N with SI fabrics; in model units (mass 1 a particle) otherwise."
        ),
        plot_with="pin_force",
        curve=QT_TR_NOOP("largest link"),
    )
    contact_force: float = readout(
        QT_TR_NOOP("Contact force"),
        units.FORCE,
        of_simulation(contact_force),
        QT_TR_NOOP(
            "Total normal force the floor, the ball and the obstacles push the cloth with (at rest "
            "on them: its weight, less what the pins hold)."
            " In N with SI fabrics; in model units (mass 1 a particle) otherwise."
        ),
        plot_with="pin_force",
        curve=QT_TR_NOOP("contact"),
    )
    tip_drop: float = readout(
        QT_TR_NOOP("Tip drop"),
        units.LENGTH,
        of_simulation(specimens.tip_drop),
        QT_TR_NOOP("Cantilever: how far the free end hangs below the platform's edge."),
        si_shown_unit="cm",
        si_shown_scale=100.0,
        applies=_has_cantilever,
    )
    chord_angle: float = readout(
        QT_TR_NOOP("Chord angle"),
        "°",
        of_simulation(specimens.chord_angle),
        QT_TR_NOOP(
            "Cantilever: degrees below horizontal of the line from the platform's edge to the tip "
            "(ASTM D1388 reads the bending length where it is 41.5°)."
        ),
        applies=_has_cantilever,
    )
    bending_length: float = readout(
        QT_TR_NOOP("Bending length"),
        units.LENGTH,
        of_simulation(specimens.bending_length),
        QT_TR_NOOP(
            "Cantilever: Peirce's c = l·(cos(θ/2) / (8·tan θ))^(1/3) from the overhang l and the "
            "chord angle θ; c³ = B / (ρ·g)."
        ),
        si_shown_unit="cm",
        si_shown_scale=100.0,
        applies=_has_cantilever,
    )
    elongation: float = readout(
        QT_TR_NOOP("Elongation"),
        units.LENGTH,
        of_simulation(specimens.elongation),
        QT_TR_NOOP(
            "Hanging strip: how much longer than at rest, top row to bottom row (ρ·g·L²/(2k) for "
            "a strip of stretch stiffness k at small strain)."
        ),
        si_shown_unit="mm",
        si_shown_scale=1000.0,
        applies=_has_hanging_strip,
    )
    drape_coefficient: float = readout(
        QT_TR_NOOP("Drape coefficient"),
        "%",
        of_simulation(specimens.drape_coefficient),
        QT_TR_NOOP(
            "Drape test: (shadow area − support area) / (specimen area − support area) × 100, the "
            "shadow cast straight down, folds and overlaps counted once (Cusick)."
        ),
        applies=_has_drape_specimen,
    )
    folds: float = readout(
        QT_TR_NOOP("Folds"),
        "",
        of_simulation(specimens.folds),
        QT_TR_NOOP("Drape test: the folds (nodes) round the shadow's outline."),
        applies=_has_drape_specimen,
        plotted=False,
        integer=True,
    )
    links: int = readout(
        QT_TR_NOOP("Links"),
        "",
        of_simulation(live_links),
        QT_TR_NOOP("Live links (cuts and tears remove links)."),
        plotted=False,
        integer=True,
    )
    faces: int = readout(
        QT_TR_NOOP("Faces"),
        "",
        of_simulation(live_faces),
        QT_TR_NOOP(
            "Live faces: a face is drawn while all six of its links (four sides, two diagonals) "
            "are live."
        ),
        plotted=False,
        integer=True,
    )


READOUTS: tuple[Readout, ...] = tuple(
    Readout(f.name, **f.metadata[ROW]) for f in fields(Readouts) if f.name != "t"
)
READOUT_KEYS: tuple[str, ...] = tuple(r.key for r in READOUTS)
# What the Readouts panel shows, so what a question can point at: every plotted readout (on its
# own plot or as a second curve on another's) and the counts under the plots.
SHOWN_KEYS: tuple[str, ...] = tuple(r.key for r in READOUTS if r.plotted or r.integer)
# Every CSV (the CLI's and the app's) has these columns: the step, model time, the readouts.
# Code finds a column by its key; the file's header names each with its unit (csv_header).
CSV_COLUMNS: tuple[str, ...] = ("step", "t", *READOUT_KEYS)
CSV_UNITS: dict[str, str] = {"step": "", "t": "s", **{r.key: r.unit for r in READOUTS}}


def unit_of(key: str, si: bool = False) -> str:
    """The unit a column's values are in: the model's, or for a run in SI units (`si`) the
    SI one (sim.core.units)."""
    return units.shown_in(CSV_UNITS[key], si)


def shown_unit(readout: Readout, si: bool = False) -> str:
    """The unit the panels and plots show a readout in (untranslated): "%" for a fraction,
    "cm" for an SI bending length, else the unit its values are in (unit_of)."""
    if si and readout.si_shown_unit:
        return readout.si_shown_unit
    return readout.shown_unit or unit_of(readout.key, si)


def shown_scale(readout: Readout, si: bool = False) -> float:
    """What the panels multiply a readout's value by to show it in shown_unit."""
    if si and readout.si_shown_unit:
        return readout.si_shown_scale
    return readout.shown_scale


def csv_units(si: bool = False) -> dict[str, str]:
    return {key: unit_of(key, si) for key in CSV_COLUMNS}


def header_name(key: str, si: bool = False) -> str:
    """A column's name in a CSV header: its key and the unit its values are written in
    ("t (s)", "max_stretch (fraction)": not the % the panels show); a count has none."""
    unit = units.ascii_unit(unit_of(key, si))
    return f"{key} ({unit})" if unit else key


def column_key(name: str) -> str:
    """The key of a header's column: "sag (units)" → "sag". A bare key (a CSV written before
    the header said units) is its own key, so older files read the same."""
    return name.split(" (", 1)[0].strip()


def csv_header(si: bool = False) -> tuple[str, ...]:
    return tuple(header_name(key, si) for key in CSV_COLUMNS)


CSV_HEADER: tuple[str, ...] = csv_header()  # of a run in model units


def measure(sim: Simulation) -> Readouts:
    """Every readout of the simulation as it stands (what several read, measured once)."""
    measured = passes(sim)
    values: dict[str, Any] = {r.key: _typed(r, r.measure(sim, measured)) for r in READOUTS}
    return Readouts(t=sim.state.t, **values)


def _typed(readout: Readout, value: float) -> float | int:
    # a count that does not apply (folds without a drape specimen) stays NaN
    return int(value) if readout.integer and math.isfinite(value) else float(value)


# --- rows and CSV ----------------------------------------------------------------------------


def row(steps: int, readouts: Readouts) -> tuple[float, ...]:
    """One CSV_COLUMNS row as floats (NaN for a readout that does not apply)."""
    return (float(steps), float(readouts.t), *(float(getattr(readouts, k)) for k in READOUT_KEYS))


# Significant digits of the time column: model time is a sum of Δt's, whose rounding errors add
# up (29.999999999998938 at step 3600 of 1/120 s); the time the steps make is written.
TIME_DIGITS = 12


def csv_cells(values: Iterable[float]) -> list[str]:
    """Text cells of a row: integers plain, the time to TIME_DIGITS, other floats round-trip
    exact, NaN empty."""
    integer_columns = {"step"} | {r.key for r in READOUTS if r.integer}
    cells = []
    for column, value in zip(CSV_COLUMNS, values, strict=True):
        if math.isnan(value):
            cells.append("")
        elif column in integer_columns:
            cells.append(str(int(value)))
        elif column == "t":
            cells.append(repr(float(f"{value:.{TIME_DIGITS}g}")))
        else:
            cells.append(repr(float(value)))
    return cells


def csv_text(rows: Iterable[Iterable[float]], probe_slots: int = 0, si: bool = False) -> str:
    """The CSV of readout rows (CSV_COLUMNS). With `probe_slots`, each row goes on with that
    many probes' columns (sim.core.probes.column_keys); `si`: a run in SI units."""
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow([*csv_header(si), *probes.header_names(probe_slots, si)])
    width = len(CSV_COLUMNS)
    writer.writerows(
        [*csv_cells(list(r)[:width]), *probes.csv_cells(list(r)[width:])] for r in rows
    )
    return stream.getvalue()


MAX_ROWS = 1_000_000  # about 4.5 hours at 60 rows a second; then the oldest half goes


PROBE_WIDTH = probes.MAX_PROBES * len(probes.QUANTITIES)  # a row's probe columns, every slot
_NO_PROBE_ROW = np.full(PROBE_WIDTH, np.nan)


class ReadoutHistory:
    """Readout rows (CSV_COLUMNS) in model-time order, each with the probes' readings of its
    step beside it where known (sim.core.probes.values: every slot, NaN without a probe); a
    jump back in time starts afresh."""

    def __init__(self) -> None:
        # (capacity, columns + probe columns) float64: a row and its probes move as one
        self._rows = np.zeros((1024, len(CSV_COLUMNS) + PROBE_WIDTH))
        self._count = 0

    def __len__(self) -> int:
        return self._count

    @property
    def rows(self) -> np.ndarray:
        """(n, columns) float64 view of the recorded rows."""
        return self._rows[: self._count, : len(CSV_COLUMNS)]

    @property
    def probe_rows(self) -> np.ndarray:
        """(n, PROBE_WIDTH) float64 view of the probes' readings beside the rows."""
        return self._rows[: self._count, len(CSV_COLUMNS) :]

    def column(self, key: str) -> np.ndarray:
        return self.rows[:, CSV_COLUMNS.index(key)]

    def clear(self) -> None:
        self._count = 0

    def append(self, steps: int, readouts: Readouts) -> bool:
        """Record one moment; False if it changes nothing (the same row as the last)."""
        return self.extend(np.array([row(steps, readouts)]))

    def extend(self, rows: np.ndarray, probe_rows: np.ndarray | None = None) -> bool:
        """Record (k, columns) rows in step order, with (k, PROBE_WIDTH) probe readings beside
        them if given. A row before the last step recorded starts afresh (a reset or a new
        scene); a row of the last step recorded takes its place: the state at that step has
        changed (an edit, an undo or a reset while paused), and the record holds the readouts
        of the state as it is, one row per step. False if nothing changed."""
        if len(rows) == 0:  # a snapshot between rows
            return False
        added = False
        beside = (
            probe_rows
            if probe_rows is not None
            else np.broadcast_to(_NO_PROBE_ROW, (len(rows), PROBE_WIDTH))
        )
        # a row without its probes' readings leaves those of its step as they were
        replaced = slice(None) if probe_rows is not None else slice(len(CSV_COLUMNS))
        for values in np.hstack([np.asarray(rows).reshape(len(rows), -1), beside]):
            if self._count:
                last = self._rows[self._count - 1]
                if values[0] == last[0]:
                    if not np.array_equal(values[replaced], last[replaced], equal_nan=True):
                        last[replaced] = values[replaced]
                        added = True
                    continue
                if values[0] < last[0]:
                    self.clear()
            if self._count == len(self._rows):
                self._grow()
            self._rows[self._count] = values
            self._count += 1
            added = True
        return added

    def _grow(self) -> None:
        if len(self._rows) >= MAX_ROWS:
            keep = self._count // 2
            self._rows[:keep] = self._rows[self._count - keep : self._count]
            self._count = keep
            return
        bigger = np.zeros((len(self._rows) * 2, self._rows.shape[1]))
        bigger[: self._count] = self._rows[: self._count]
        self._rows = bigger

    def window(self, seconds: float) -> np.ndarray:
        """The rows of the last `seconds` of model time."""
        rows = self.rows
        if not len(rows):
            return rows
        start = np.searchsorted(rows[:, 1], rows[-1, 1] - seconds, side="left")
        return rows[start:]

    def csv_text(self, si: bool = False) -> str:
        """The rows as `clothlab run --csv` writes them, with the columns of as many probes
        as were ever on at once (`si`: a run in SI units)."""
        read = np.flatnonzero(np.isfinite(self.probe_rows).any(axis=0))
        slots = -(-(int(read.max()) + 1) // len(probes.QUANTITIES)) if len(read) else 0
        width = len(CSV_COLUMNS) + slots * len(probes.QUANTITIES)
        return csv_text(self._rows[: self._count, :width], slots, si)


# Readouts are recorded every `record_stride` steps from step 0: every step up to this many
# live links, then sparser, so that measuring stays a small part of a step (each readout is
# a pass over the particles or links; a step is `passes` of them).
RECORD_EVERY_STEP_UP_TO_LINKS = 20_000


def record_stride(link_count: int) -> int:
    return max(1, -(-link_count // RECORD_EVERY_STEP_UP_TO_LINKS))
