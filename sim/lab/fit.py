"""Fit my fabric: a bending rigidity B from what a person measured on their own fabric (its
areal density, and the overhang at which a cantilever strip of it droops to 41.5°), found by a
sweep of the model's cantilever over B on the sweep machinery (local processes or Dask).

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
from clothlab.sim.document.scene import SIMaterialSpec
from clothlab.sim.lab import textile
from clothlab.sim.lab.sweep import Pool, run_sweep
from clothlab.sim.lab.variants import Variant, VariantResult

SPREAD = (0.5, 0.7, 1.0, 1.4, 2.0)  # × the first guess: the B values swept
SETTLE_SECONDS = 3.0


class FitError(ValueError):
    """A fit that cannot be made (the measured angle outside what the sweep reached); one line."""


@dataclass(frozen=True)
class Fit:
    bending_rigidity: float  # N·m, fitted
    material: SIMaterial  # cotton's stretch and shear with the density and B given and fitted
    swept: tuple[tuple[float, float], ...]  # (B, chord angle °) the sweep measured
    guess: float  # N·m, Peirce's


def peirce_guess(areal_density: float, overhang: float, angle: float) -> float:
    """B = ρ·g·c³ with Peirce's bending length c at that overhang and chord angle."""
    c = peirce_bending_length(overhang, angle)
    if not math.isfinite(c):
        raise FitError(f"chord angle {angle:g}°: expected an angle between 0 and 90°")
    return areal_density * textile.GRAVITY * c**3


def fit_bending_rigidity(
    areal_density: float,
    overhang: float,
    pool: Pool,
    angle: float = textile.PEIRCE_ANGLE,
    should_stop: Callable[[], bool] = lambda: False,
) -> Fit:
    """The B at which the model's strip of this density, pushed `overhang` m over the edge,
    droops to `angle` degrees. FitError if the sweep did not bracket the angle or a run
    failed; the sweep stopped by `should_stop` raises FitError too."""
    guess = peirce_guess(areal_density, overhang, angle)
    base = SI_FABRICS["cotton"].with_values(areal_density=areal_density)
    scene = textile.cantilever_scene(SIMaterialSpec.of("yours", base), overhang)
    values = [guess * k for k in SPREAD]
    variants = [Variant(f"bending_rigidity={b:.4g}", {"bending_rigidity": b}) for b in values]
    results: dict[int, VariantResult] = {}
    steps = round(SETTLE_SECONDS / scene.solver.dt)
    if not run_sweep(pool, scene, variants, steps, results.__setitem__, should_stop):
        raise FitError("the fit was stopped")
    angles = []
    for k, b in enumerate(values):
        final = results[k].final
        if final is None:
            raise FitError(f"bending_rigidity={b:.4g}: {results[k].status}")
        angles.append(final.chord_angle)
    swept = tuple(zip(values, angles, strict=True))
    # the angle falls as B grows: interpolate log B against the angle, increasing
    order = np.argsort(angles)
    ordered = np.asarray(angles)[order]
    if not ordered[0] <= angle <= ordered[-1]:
        raise FitError(
            f"a {angle:g}° droop at {overhang * 100:g} cm is outside what B from "
            f"{values[0]:.3g} to {values[-1]:.3g} N·m gives ({ordered[0]:.1f}…{ordered[-1]:.1f}°)"
        )
    log_b = np.interp(angle, ordered, np.log(np.asarray(values)[order]))
    fitted = float(np.exp(log_b))
    material = base.with_values(bending_warp=fitted, bending_weft=fitted)
    return Fit(fitted, material, swept, guess)
