"""Fit my fabric: a bending rigidity B from what a person measured on their own fabric (its
areal density, and the overhang at which a cantilever strip of it droops to 41.5°, or its
drape coefficient on a Cusick meter), found by a sweep of the model's cantilever or drape
specimen over B on the sweep machinery (local processes or Dask).

Peirce's formula gives the first guess (at 41.5° the bending length is half the overhang, and
B = ρ·g·c³); the sweep then measures the chord angle the model's strip droops to for B around
it and interpolates log B to the angle measured, so that the fitted fabric droops as the real
one did in this model, not only in Peirce's approximation of it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from clothlab.sim.core.materials import SI_FABRICS, SIMaterial
from clothlab.sim.core.specimens import peirce_bending_length
from clothlab.sim.document.scene import Scene, SIMaterialSpec, field_range
from clothlab.sim.lab import textile
from clothlab.sim.lab.sweep import Pool, run_sweep
from clothlab.sim.lab.variants import Variant, VariantResult
from clothlab.sim.text import tr

SPREAD = (0.5, 0.7, 1.0, 1.4, 2.0)  # × the first guess: the B values swept
SETTLE_SECONDS = 3.0
# A drape coefficient has no formula to guess from: its sweep spans these bending lengths, m
# (B = ρ·g·c³), from a fluid silk's to a stiff denim's and beyond.
DRAPE_BENDING_LENGTHS = (0.008, 0.012, 0.018, 0.027, 0.04)
TREND_DEGREE = 3  # of the polynomial in ln B a drape coefficient's B is read off


class FitError(ValueError):
    """A fit that cannot be made (what was measured outside what the sweep reached); one line."""


Progress = Callable[[int, int], None]  # told (done, of how many) as each swept specimen is done


@dataclass(frozen=True)
class Fit:
    bending_rigidity: float  # N·m, fitted
    material: SIMaterial  # cotton's stretch and shear with the density and B given and fitted
    swept: tuple[tuple[float, float], ...]  # (B, what the test read: chord angle ° or DC %)
    guess: float | None  # N·m, Peirce's (a cantilever's fit); None for a drape coefficient's
    # a drape coefficient's fit: the coefficients, highest power first, of the cubic in ln B
    # that the drape coefficient is read off (np.polyval(trend, ln B))
    trend: tuple[float, ...] | None = None


def peirce_guess(areal_density: float, overhang: float, angle: float) -> float:
    """B = ρ·g·c³ with Peirce's bending length c at that overhang and chord angle."""
    c = peirce_bending_length(overhang, angle)
    if not math.isfinite(c):
        message = tr("chord angle {angle:g}°: expected an angle between 0 and 90°")
        raise FitError(message.format(angle=angle))
    return areal_density * textile.GRAVITY * c**3


def fit_bending_rigidity(
    areal_density: float,
    overhang: float,
    pool: Pool,
    angle: float = textile.PEIRCE_ANGLE,
    should_stop: Callable[[], bool] = lambda: False,
    progress: Progress = lambda done, count: None,
) -> Fit:
    """The B at which the model's strip of this density, pushed `overhang` m over the edge,
    droops to `angle` degrees. FitError if the sweep did not bracket the angle or a run
    failed; the sweep stopped by `should_stop` raises FitError too."""
    guess = peirce_guess(areal_density, overhang, angle)
    base = SI_FABRICS["cotton"].with_values(areal_density=areal_density)
    scene = textile.cantilever_scene(SIMaterialSpec.of("yours", base), overhang)
    values = [guess * k for k in SPREAD]
    angles = _sweep(pool, scene, values, "chord_angle", should_stop, progress)
    what = tr("a {angle:g}° droop at {overhang:g} cm").format(angle=angle, overhang=overhang * 100)
    _bracketed(values, angles, angle, what, "°")
    # the angle falls as B grows: interpolate log B against the angle, increasing
    order = np.argsort(angles)
    log_b = np.interp(angle, np.asarray(angles)[order], np.log(np.asarray(values)[order]))
    return _fit(base, float(np.exp(log_b)), values, angles, guess)


def fit_bending_rigidity_to_drape(
    areal_density: float,
    drape_coefficient: float,
    pool: Pool,
    should_stop: Callable[[], bool] = lambda: False,
    progress: Progress = lambda done, count: None,
    cols: int | None = None,
) -> Fit:
    """The B at which the model's Cusick specimen of this density (cotton's stretch and shear),
    `cols` particles across (None: the drape check's first mesh, textile.CHECK_COLS[0] as it
    is when called), drapes to `drape_coefficient` %, from a sweep over
    DRAPE_BENDING_LENGTHS. FitError as for fit_bending_rigidity. The coefficient moves with the
    folds a specimen happens to make (RESEARCH.md §8), so the fit is as good as a few points of
    it. By default the specimen is the drape check's, so that `clothlab validate --own` reads
    the fitted fabric's coefficient on the mesh it was fitted on: the preset's coarser one folds
    some fabrics fewer times and reads them up to 15 points lower."""
    if not 0.0 < drape_coefficient < 100.0:
        message = tr("drape coefficient {value:g} %: expected a value between 0 and 100 %")
        raise FitError(message.format(value=drape_coefficient))
    base = SI_FABRICS["cotton"].with_values(areal_density=areal_density)
    cols = textile.CHECK_COLS[0] if cols is None else cols
    scene = textile.cusick_drape_scene(SIMaterialSpec.of("yours", base), cols)
    values = [areal_density * textile.GRAVITY * c**3 for c in DRAPE_BENDING_LENGTHS]
    coefficients = _sweep(
        pool, scene, values, "drape_coefficient", should_stop, progress, textile.DRAPE_SECONDS
    )
    what = tr("a drape coefficient of {value:g} %").format(value=drape_coefficient)
    _bracketed(values, coefficients, drape_coefficient, what, " %")
    # A fold more or less moves the coefficient by points (RESEARCH.md §8), so it is not
    # interpolated between neighbours but read off the least-squares cubic in ln B through
    # every point: the coefficient rises along an S in ln B (a limp specimen hangs, a stiff one
    # stays flat), which a cubic follows through its inflection; a parabola read B 24 % high
    # on the check's mesh and a straight line 22 % low on the preset's (bench/fit_drape.py)
    trend = np.polyfit(np.log(values), coefficients, TREND_DEGREE)
    fitted = _rising_root(trend, drape_coefficient, math.log(values[0]), math.log(values[-1]))
    return _fit(base, fitted, values, coefficients, None, tuple(float(c) for c in trend))


def _rising_root(trend: np.ndarray, target: float, low: float, high: float) -> float:
    """B where the polynomial `trend` in ln B meets `target` rising, between e^low and e^high."""
    rising = np.polyder(trend)
    found = [
        root.real
        for root in np.roots(np.polysub(trend, [target]))
        if abs(root.imag) < 1e-9 and low <= root.real <= high and np.polyval(rising, root.real) > 0
    ]
    if not found:
        raise FitError(
            tr("the drape coefficient did not rise with B through the target over the sweep")
        )
    return float(np.exp(min(found)))


def _bracketed(
    values: list[float], measured: list[float], target: float, what: str, unit: str
) -> None:
    """FitError unless the sweep of B over `values` measured `target` somewhere in its range."""
    if not min(measured) <= target <= max(measured):
        message = tr("{what} is outside what B from {low:.3g} to {high:.3g} N·m gives "
                     "({least:.1f}…{most:.1f}{unit})")  # fmt: skip
        low, high, least, most = values[0], values[-1], min(measured), max(measured)
        raise FitError(message.format(what=what, low=low, high=high, least=least, most=most,
                                      unit=unit))  # fmt: skip


def _fit(
    base: SIMaterial,
    fitted: float,
    values: list[float],
    measured: list[float],
    guess: float | None,
    trend: tuple[float, ...] | None = None,
) -> Fit:
    material = base.with_values(bending_warp=fitted, bending_weft=fitted)
    return Fit(fitted, material, tuple(zip(values, measured, strict=True)), guess, trend)


def _sweep(
    pool: Pool,
    scene: Scene,
    values: list[float],
    readout: str,
    should_stop: Callable[[], bool],
    progress: Progress,
    seconds: float = SETTLE_SECONDS,
) -> list[float]:
    """The readout each B of `values` settles the scene to, on the sweep machinery. FitError,
    before any run, if a B is beyond what a fabric may have (what was measured is far from any
    cloth: a 10 kg/m² sheet that droops 41.5° a metre out)."""
    low, high = field_range(SIMaterialSpec, "bending_warp")
    if values[0] < low or values[-1] > high:
        message = tr("the sweep would need B from {first:.3g} to {last:.3g} N·m, beyond the "
                     "{low:g}…{high:g} N·m a fabric may have: check the density and what was "
                     "measured")  # fmt: skip
        raise FitError(message.format(first=values[0], last=values[-1], low=low, high=high))
    variants = [Variant(f"bending_rigidity={b:.4g}", {"bending_rigidity": b}) for b in values]
    results: dict[int, VariantResult] = {}

    def done(k: int, result: VariantResult) -> None:
        results[k] = result
        progress(len(results), len(values))

    steps = round(seconds / scene.solver.dt)
    if not run_sweep(pool, scene, variants, steps, done, should_stop):
        raise FitError(tr("the fit was stopped"))
    measured = []
    for k, b in enumerate(values):
        final = results[k].final
        if final is None:
            raise FitError(f"bending_rigidity={b:.4g}: {results[k].status}")
        measured.append(float(getattr(final, readout)))
    return measured
