"""Headless command line: run a scene (or replay a recording) and print its readouts, compare
variants of it side by side, sweep a grid of them in parallel, list presets, benchmark.

Every failure ends in exit status 2 and one line on stderr that names the file or the option
(control characters escaped, a long line elided in the middle): bad input, and any file that
cannot be read or written. Nothing is written unless the whole run succeeds, except that Ctrl+C
stops a run with exit 130 and keeps the CSV rows of the steps it finished. `compare` and `sweep`
report a variant that blew up in its rows and run the rest: a failed variant is a result. A
sweep whose Dask scheduler goes away ends with exit 4, keeping the rows of the variants finished.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import logging
import math
import os
import signal
import stat
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np

from clothlab.app import bench, questions_cli, validate_cli, warm_up
from clothlab.app.errors import Parser, UsageError
from clothlab.app.frames import FrameOutputs
from clothlab.sim.core import probes, readouts
from clothlab.sim.core.parameters import PARAMETERS
from clothlab.sim.document.files import MAX_MESSAGE, AtomicFile, SceneError, describe
from clothlab.sim.document.presets import is_preset
from clothlab.sim.document.recording import load_recording
from clothlab.sim.document.scene import Scene, capture_scene, scene_json
from clothlab.sim.lab import variants
from clothlab.sim.lab.engine import Engine, in_si_units, probe_slots
from clothlab.sim.lab.variants import (
    BASELINE,
    SCENE_KEYS,
    Source,
    Variant,
    VariantError,
    VariantResult,
    parse_changes,
    read_source,
    scene_of,
)

if TYPE_CHECKING:
    pass

EXIT_BAD_INPUT = 2
EXIT_UNSTABLE = 3  # the model blew up; nothing is written
EXIT_INTERRUPTED = 130  # Ctrl+C: 128 + SIGINT, what a shell reports for a job it interrupted
EXIT_LOST = 4  # a sweep's cluster went away: the rows of the variants finished are written
INTERRUPTED = "interrupted"
DASK_LOGGERS = ("distributed", "tornado", "bokeh")  # and those under them
MAX_STEPS = 1_000_000_000  # some 100 days at 10⁴ steps/s: a typo, not a run
DEFAULT_STEPS = 600  # 5 s of model time
MAX_WORKERS = 1024
PROGRESS_EVERY_S = 0.25
MAX_VARIANTS = 4  # besides the baseline: a table of five columns still reads


def one_line(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` as one line, as SceneError writes its messages: line breaks and other control
    characters escaped, the middle of a long text elided (its start and end say the most)."""
    line = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    if len(line) > limit:
        half = (limit - 1) // 2
        line = f"{line[:half]}…{line[-half:]}"
    return line


def _fail(message: str) -> int:
    print(f"clothlab: error: {one_line(message)}", file=sys.stderr)
    return EXIT_BAD_INPUT


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="clothlab", description="Cloth Lab, headless.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    run = commands.add_parser("run", help="run a scene and print its final readouts")
    run.add_argument("scene", help="preset name, scene file path, or a recording with --replay")
    _steps_option(run, "steps of 1/120 s (default 600; a recording's own with --replay)")
    _set_option(run)
    run.add_argument("--seam", action="store_true", help="apply the seam cut before step 0")
    run.add_argument(
        "--replay", action="store_true",
        help="the file is a recording: replay its commands, each at its step",
    )  # fmt: skip
    run.add_argument("--csv", type=Path, help="write readouts per step to this CSV file")
    run.add_argument(
        "--save", type=Path, help="save the scene as set up (with --set, --seam and the "
        "recording's edits; never what the run tore)",
    )  # fmt: skip
    run.add_argument(
        "--save-state", type=Path, metavar="FILE",
        help="save the set-up with the links torn by the end (no positions: it opens at rest)",
    )  # fmt: skip
    run.add_argument("--positions", type=Path, help="save final positions as (N, 3) .npy")
    run.add_argument("--obj-dir", type=Path, help="write a mesh per frame into this folder")
    run.add_argument("--mesh-format", default="obj", help="obj (default) or ply for --obj-dir")
    run.add_argument("--video", type=Path, help="draw the run into an .mp4 or .gif (OpenGL)")
    run.add_argument("--video-size", default="1280x720", metavar="WxH", help="default 1280x720")
    run.add_argument("--fps", type=int, default=30, help="frames per model second: 24, 30, 60")

    compare = commands.add_parser("compare", help="run variants of a scene side by side")
    compare.add_argument("scene", help="preset name, scene file path or recording")
    compare.add_argument(
        "--variant", action="append", default=[], metavar="KEY=VALUE[,KEY=VALUE…]",
        help=f"settings changed from the baseline (as --set takes them; at most {MAX_VARIANTS})",
    )  # fmt: skip
    _steps_option(compare, "steps of 1/120 s (default 600; a recording's own)")
    compare.add_argument("--csv", type=Path, help="write every variant's readouts per step")

    sweep = commands.add_parser("sweep", help="run a grid of variants in parallel")
    sweep.add_argument("scene", help="preset name, scene file path or recording")
    sweep.add_argument(
        "--vary", action="append", default=[], metavar="KEY=V1,V2,…",
        help=f"a setting and its values; the grid is every combination (at most "
        f"{variants.MAX_GRID})",
    )  # fmt: skip
    _steps_option(sweep, "steps of 1/120 s (default 600; a recording's own)")
    sweep.add_argument("--csv", type=Path, help="write one row per variant to this CSV file")
    sweep.add_argument("--workers", type=int, help="worker processes (default: one per CPU)")
    sweep.add_argument(
        "--scheduler", metavar="tcp://HOST:PORT",
        help=f"run on this Dask cluster instead (needs {sweep_module_hint()})",
    )  # fmt: skip

    commands.add_parser("scenes", help="list the built-in scenes")
    questions_cli.add_parser(commands)
    validate_cli.add_parser(commands)
    warm_up.add_parser(commands)
    bench.add_parser(commands)
    return parser


def _steps_option(parser: argparse.ArgumentParser, text: str) -> None:
    parser.add_argument("--steps", type=int, default=None, help=text)


def _set_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE",
        help=f"change a setting: {', '.join([*PARAMETERS, *SCENE_KEYS])}, fabric=NAME (model "
        "units, the world's settings) or material=NAME (an SI fabric for every sheet)",
    )  # fmt: skip


def sweep_module_hint() -> str:
    from clothlab.sim.lab.sweep import INSTALL_HINT

    return INSTALL_HINT


def main(argv: Sequence[str]) -> int:
    try:
        args = build_parser().parse_args(list(argv))
        command = {
            "run": run_command, "compare": compare_command, "sweep": sweep_command,
            "scenes": scenes_command, "bench": bench.bench_command,
            "questions": questions_cli.questions_command,
            "validate": validate_cli.validate_command, "warm-up": warm_up.warm_up_command,
        }[args.command]  # fmt: skip
        return command(args)
    except (UsageError, SceneError) as error:
        return _fail(str(error))
    except BrokenPipeError:  # whoever read stdout (`| head -1`) has all it wanted: a normal end
        with contextlib.suppress(OSError):  # and Python's flush of stdout at exit must not fail
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as error:  # any other file a command reads or writes: one line, no traceback
        return _fail(f"{error.filename}: {describe(error)}" if error.filename else describe(error))
    except KeyboardInterrupt:  # a second Ctrl+C during a run, or one before it started
        print("clothlab: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


# --- run -------------------------------------------------------------------------------------


def parse_set(pairs: list[str]) -> dict[str, Any]:
    """--set pairs as one dict of changes (sim.lab.variants), a bad one as a UsageError."""
    try:
        return parse_changes(pairs)
    except VariantError as error:
        raise UsageError(f"--set {error}") from None


def _note(message: str) -> None:
    print(f"clothlab: note: {one_line(message)}", file=sys.stderr)


def reshape_scene(scene: Scene, reshapes: dict[str, float]) -> Scene:
    """The scene with its first sheet reshaped; pins follow it (sim.document.composition), cuts of a
    sheet given a new resolution are dropped with a note on stderr."""
    return variants.reshape_scene(scene, reshapes, _note)


def _read_source(name: str, recording: bool = False) -> Source:
    """A preset, scene file or recording; with `recording` (--replay) anything but a regular
    file or a preset (a FIFO, a folder, a device, nothing) is refused as a recording file."""
    with _reported(name):  # a 300-character name is an OSError before it is a file
        if recording and not is_preset(name) and not _is_regular_file(name):
            return load_recording(name)
        return read_source(name)


def _is_regular_file(name: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(name).st_mode)
    except (OSError, ValueError):
        return False


def _check_steps(steps: int | None) -> None:
    if steps is not None and steps < 0:
        raise UsageError(f"--steps: {steps} is negative")
    if steps is not None and steps > MAX_STEPS:
        raise UsageError(f"--steps: {steps} is more than {MAX_STEPS:_}")


def _steps_for(source: Source, steps: int | None) -> int:
    """--steps, or the recording's own length (600 for a scene); never before the last
    recorded command, which would otherwise not be replayed."""
    if isinstance(source, Scene):
        return DEFAULT_STEPS if steps is None else steps
    if steps is None:
        return source.steps
    last = variants.last_command_step(source)
    if steps < last:
        raise UsageError(f"--steps: {steps} is before the recording's last command (step {last})")
    return steps


def _changed(source: Source, changes: dict[str, Any]) -> Source:
    try:
        return variants.changed(source, changes, _note)
    except VariantError as error:
        raise UsageError(f"--set {error}") from None


def run_command(args: argparse.Namespace) -> int:
    _check_steps(args.steps)
    outputs = Outputs()
    try:
        for option in ("csv", "positions", "save", "save_state"):
            outputs.open(option, getattr(args, option))
        changes = parse_set(args.set)
        source = _read_source(args.scene, recording=args.replay)
        if args.replay and isinstance(source, Scene):
            raise UsageError(f"{args.scene}: is a scene, not a recording (--replay plays one)")
        if not args.replay and not isinstance(source, Scene):
            raise UsageError(f"{args.scene}: is a recording: play it with --replay")
        if args.replay and args.seam:
            raise UsageError("--seam: not with --replay (the recording holds its own cuts)")
        steps = _steps_for(source, args.steps)
        # --set and --seam edit the document, as the app's panels and menus do, before step 0.
        source = _changed(source, changes)
        if args.seam and isinstance(source, Scene):  # a recording's was refused above
            source = _with_seam(source)
        slots = probe_slots(source) if "csv" in outputs.files else 0
        engine = Engine.of(
            source, record_every=1 if "csv" in outputs.files else 0, record_probes=slots > 0
        )
        frames = FrameOutputs(args, scene_of(source), engine.sim.settings.dt)
        try:
            return _run(source, engine, steps, outputs, frames)
        finally:
            frames.discard()  # whatever was not committed
    finally:
        outputs.discard()


def _with_seam(scene: Scene) -> Scene:
    from clothlab.sim.lab.session import with_seam

    try:
        return with_seam(scene)
    except ValueError as error:
        raise UsageError(f"--seam: {scene.name!r}: {error}") from None


def _run(source: Source, engine: Engine, steps: int, outputs: Outputs, frames: FrameOutputs) -> int:
    sim = engine.sim
    table = None
    if "csv" in outputs.files:
        table = CsvRows(outputs, "csv", probe_slots=probe_slots(source), si=in_si_units(source))
    progress = Progress(steps)

    def write_rows() -> None:
        rows = engine.take_rows()  # none unless --csv
        probe_rows = engine.take_probe_rows()  # none unless the scene has probes
        if table is not None:
            for k, line in enumerate(rows):
                table.add(line, probe_values=probe_rows[k] if probe_rows else ())

    with StopOnInterrupt() as stop:
        write_rows()
        frames.after_step(sim)
        done = 0
        try:
            progress.show(0)
            while done < steps and not stop.requested:
                engine.advance(1)
                if engine.blew_up:
                    progress.clear()
                    instability = sim.instability
                    message = one_line(instability.message if instability else "blew up")
                    print(f"clothlab: error: {message}", file=sys.stderr)
                    return EXIT_UNSTABLE
                done += 1
                write_rows()
                frames.after_step(sim)
                progress.show(done)
        finally:
            progress.clear()  # before any message, so that it starts a line of its own
        if done < steps:  # Ctrl+C: keep the rows of the steps that finished
            kept = "nothing written"
            if table:
                outputs.commit("csv")
                kept = f"{table.count} rows written to {outputs.path('csv')}"
            _say(f"interrupted after step {done} of {steps}; {kept}")
            return EXIT_INTERRUPTED
        final = engine.readouts()
        if "positions" in outputs.files:
            buffer = io.BytesIO()
            x = np.ascontiguousarray(sim.state.x, dtype=np.float64)
            np.save(buffer, x, allow_pickle=False)
            outputs.write("positions", buffer.getvalue())
        document = variants.document_at_end(source)
        if "save" in outputs.files:
            outputs.write("save", scene_json(document).encode())
        if "save_state" in outputs.files:
            outputs.write("save_state", scene_json(capture_scene(document, sim)).encode())
        outputs.commit(*outputs.files)  # the renames, last: all outputs or none
        frames.commit()

    lines = [("scene", one_line(scene_of(source).name)), ("steps", str(sim.state.steps))]
    lines.append(("t", f"{final.t:.6f} s"))
    pins = list(sim.pins)
    for readout in readouts.READOUTS:
        # as the window's Readouts: one that means nothing for the scene (a cantilever's sag,
        # with no top corners it hangs from) is "-", not its number
        meaningful = readout.applies(sim.topology, pins)
        lines.append((readout.key, _number(getattr(final, readout.key)) if meaningful else "-"))
    _print_columns(lines)
    return 0


def _say(message: str) -> None:
    print(f"clothlab: {one_line(message)}", file=sys.stderr)


def _print_columns(lines: Sequence[tuple[str, ...]]) -> None:
    """Rows of cells, each column as wide as its widest cell, two spaces apart."""
    widths = [max(len(line[k]) for line in lines) for k in range(len(lines[0]))]
    for line in lines:
        cells = [f"{cell:<{width}}" for cell, width in zip(line, widths, strict=True)]
        print("  ".join(cells).rstrip())


# --- compare ---------------------------------------------------------------------------------


def compare_command(args: argparse.Namespace) -> int:
    _check_steps(args.steps)
    if not args.variant:
        raise UsageError("--variant: give at least one, e.g. --variant passes=16")
    if len(args.variant) > MAX_VARIANTS:
        raise UsageError(f"--variant: {len(args.variant)} given, at most {MAX_VARIANTS}")
    chosen = [BASELINE, *(_parse_variant(text) for text in args.variant)]
    outputs = Outputs()
    try:
        outputs.open("csv", args.csv)
        source = _read_source(args.scene)
        steps = _steps_for(source, args.steps)
        sources = [_variant_source(source, v) for v in chosen]  # all checked before any runs
        return _compare(chosen, sources, steps, outputs)
    finally:
        outputs.discard()


def _parse_variant(text: str) -> Variant:
    try:
        return variants.parse_variant(text)
    except VariantError as error:
        raise UsageError(f"--variant {error}") from None


def _variant_source(source: Source, variant: Variant) -> Source:
    try:
        return variants.changed(source, variant.changes, _note)
    except (VariantError, SceneError) as error:
        raise UsageError(f"--variant {variant.name}: {error}") from None


def _compare(chosen: list[Variant], sources: list[Source], steps: int, outputs: Outputs) -> int:
    """Each variant in turn, its rows streamed to the CSV under its name."""
    si = all(in_si_units(source) for source in sources)
    table = CsvRows(outputs, "csv", lead=("variant",), si=si) if "csv" in outputs.files else None
    progress = Progress(steps * len(chosen))
    results: list[VariantResult] = []
    with StopOnInterrupt() as stop:
        try:
            for k, (variant, source) in enumerate(zip(chosen, sources, strict=True)):

                def on_row(row: tuple[float, ...], k: int = k, name: str = variant.name) -> None:
                    if table:
                        table.add(row, (name,))
                    progress.show(k * steps + int(row[0]))

                result = variants.run_variant(source, {}, steps, False, lambda: stop.requested,
                                              on_row)  # fmt: skip
                if result.failure == "interrupted":
                    progress.clear()
                    return _compare_interrupted(k, chosen, result.steps, steps, table, outputs)
                results.append(result)
        finally:
            progress.clear()
    for variant, result in zip(chosen, results, strict=True):
        if result.detail:
            _say(f"{variant.name}: {result.detail}")
    if table:
        outputs.commit("csv")
    _print_variants(chosen, results)
    return 0


def _compare_interrupted(
    k: int, chosen: list[Variant], done: int, steps: int, table: CsvRows | None, outputs: Outputs
) -> int:
    kept = "nothing written"
    if table:
        outputs.commit("csv")
        kept = f"{table.count} rows written to {outputs.path('csv')}"
    where = f"variant {k + 1} of {len(chosen)} ({chosen[k].name})"
    _say(f"interrupted in {where} after step {done} of {steps}; {kept}")
    return EXIT_INTERRUPTED


def _print_variants(chosen: list[Variant], results: list[VariantResult]) -> None:
    """Final readouts, a column per variant."""
    lines = [("", *(v.name for v in chosen)), ("status", *(r.status for r in results))]
    lines.append(("steps", *(str(r.steps) for r in results)))
    lines.append(("t", *(_readout(r, "t") for r in results)))
    for readout in readouts.READOUTS:
        lines.append((readout.key, *(_readout(r, readout.key) for r in results)))
    _print_columns(lines)


def _readout(result: VariantResult, key: str) -> str:
    if result.final is None:
        return "-"
    value = getattr(result.final, key)
    return _number(value)


# --- sweep -----------------------------------------------------------------------------------


def sweep_command(args: argparse.Namespace) -> int:
    _check_steps(args.steps)
    chosen = _parse_grid_options(args.vary)
    workers = _workers(args.workers, args.scheduler)
    outputs = Outputs()
    try:
        outputs.open("csv", args.csv)
        source = _read_source(args.scene)
        steps = _steps_for(source, args.steps)
        results, stopped = _sweep(source, chosen, steps, workers, args.scheduler)
        keys = list(chosen[0].given)
        lost = stopped not in (None, INTERRUPTED)
        # a lost sweep with no row writes nothing: no empty table over the user's file
        written = "csv" in outputs.files and (bool(results) or not lost)
        if written:
            outputs.write("csv", sweep_csv(keys, chosen, results, in_si_units(source)).encode())
            outputs.commit("csv")
        _print_sweep(keys, chosen, results)
        if stopped is None:
            return 0
        kept = f"; {len(results)} rows written to {args.csv}" if written else \
            "; nothing written" if args.csv else ""  # fmt: skip
        _say(f"{'error: ' if lost else ''}{stopped} after {len(results)} of {len(chosen)} "
             f"variants{kept}")  # fmt: skip
        return EXIT_LOST if lost else EXIT_INTERRUPTED
    finally:
        outputs.discard()


def _parse_grid_options(texts: list[str]) -> list[Variant]:
    if not texts:
        raise UsageError("--vary: give at least one, e.g. --vary passes=4,8,16")
    axes = []
    for text in texts:
        try:
            axes.append(variants.parse_axis(text))
        except VariantError as error:
            raise UsageError(f"--vary {error}") from None
    try:
        return variants.grid(axes)
    except VariantError as error:
        raise UsageError(f"--vary: {error}") from None


def _workers(workers: int | None, scheduler: str | None) -> int:
    if workers is not None and scheduler:
        raise UsageError("--workers: not with --scheduler (the cluster has its own workers)")
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise UsageError(f"--workers: {workers} is outside 1…{MAX_WORKERS}")
    return workers or os.cpu_count() or 1


def _sweep(
    source: Source, chosen: list[Variant], steps: int, workers: int, scheduler: str | None
) -> tuple[dict[int, VariantResult], str | None]:
    """The results by the variant's index, and why the others did not run: None if all did,
    INTERRUPTED (Ctrl+C), or the pool's one line ("the scheduler went away")."""
    from clothlab.sim.lab.sweep import PoolLostError, SweepError, make_pool, run_sweep

    results: dict[int, VariantResult] = {}
    progress = Progress(len(chosen), unit="variant")

    def on_done(k: int, result: VariantResult) -> None:
        results[k] = result
        progress.show(len(results))

    if scheduler:
        _keep_dask_logging_off_the_terminal()
    with StopOnInterrupt() as stop:
        try:
            pool = make_pool(min(workers, len(chosen)), scheduler)
        except SweepError as error:
            raise UsageError(str(error)) from None
        stopped: str | None = None
        try:
            progress.show(0)
            if not run_sweep(pool, source, chosen, steps, on_done, lambda: stop.requested):
                stopped = INTERRUPTED
        except PoolLostError as error:
            stopped = str(error)
        except SweepError as error:  # the pool cannot run a variant: nothing ran
            raise UsageError(str(error)) from None
        finally:
            progress.clear()
            pool.close()
    return results, stopped


def _keep_dask_logging_off_the_terminal() -> None:
    """Dask logs to stderr, tracebacks included (35 lines for a scheduler that went away): the
    sweep says what went wrong in one line of its own instead. Dask gives several of its
    loggers a stderr handler of their own as it is imported."""
    with contextlib.suppress(ImportError):
        import distributed  # noqa: F401
    loggers = logging.root.manager.loggerDict
    for name in [n for n in loggers if n.split(".")[0] in DASK_LOGGERS] + list(DASK_LOGGERS):
        logger = logging.getLogger(name)
        logger.handlers = [logging.NullHandler()]
        logger.propagate = False


def sweep_csv(
    keys: list[str], chosen: list[Variant], results: dict[int, VariantResult], si: bool = False
) -> str:
    """One row per finished variant, in grid order: its values as typed, its status, and its
    final readouts (empty for a variant that failed); `si`: the scene's run is in SI units."""
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow([*keys, "status", *readouts.csv_header(si)])
    for k in sorted(results):
        result, final = results[k], results[k].final_row
        cells = readouts.csv_cells(final) if final else [""] * len(readouts.CSV_COLUMNS)
        writer.writerow([*(chosen[k].given[key] for key in keys), result.status, *cells])
    return stream.getvalue()


def _print_sweep(keys: list[str], chosen: list[Variant], results: dict[int, VariantResult]) -> None:
    if not results:
        return
    lines = [(*keys, "status", *readouts.READOUT_KEYS)]
    for k in sorted(results):
        result = results[k]
        values = (_readout(result, key) for key in readouts.READOUT_KEYS)
        lines.append((*(chosen[k].given[key] for key in keys), result.status, *values))
    _print_columns(lines)


@contextlib.contextmanager
def _reported(path: object) -> Iterator[None]:
    """An OSError inside becomes the one line `PATH: reason` (the user's path, not a temporary
    file's, and no errno)."""
    try:
        yield
    except OSError as error:
        raise UsageError(f"{path}: {describe(error)}") from None


def _is_standard_stream(target: Path) -> bool:
    """True if `target` is the file this process's stdout or stderr already writes to (as
    `--csv /dev/stdout > out.csv` makes it): the rename would leave those writing to nothing."""
    try:
        status = os.stat(target)
    except OSError:
        return False
    for fd in (1, 2):
        with contextlib.suppress(OSError):
            if os.path.samestat(status, os.fstat(fd)):
                return True
    return False


class Outputs:
    """The run's output files. Each is opened as a temporary file beside its target before the
    run starts, so a file that cannot be written is found before the work is done (and through
    the same checks as every save: see sim/document/files.py); commit renames them over their
    targets."""

    def __init__(self) -> None:
        self.files: dict[str, AtomicFile] = {}

    def open(self, option: str, path: Path | None) -> None:
        if path is None:
            return
        with _reported(path):
            file = AtomicFile(path)
        self.files[option] = file
        if _is_standard_stream(file.target):
            raise UsageError(f"{path}: is this command's standard output or error")

    def path(self, option: str) -> Path:
        return self.files[option].path

    def write(self, option: str, data: bytes) -> None:
        with _reported(self.path(option)):
            self.files[option].write(data)

    def commit(self, *options: str) -> None:
        for option in options:
            with _reported(self.path(option)):
                self.files[option].commit()

    def discard(self) -> None:
        for file in self.files.values():
            file.discard()


class CsvRows:
    """Readout rows streamed to the --csv file as they are made: the text of readouts.csv_text,
    without keeping the rows (10⁶ steps kept as tuples were 849 MB)."""

    def __init__(
        self,
        outputs: Outputs,
        option: str,
        lead: Sequence[str] = (),
        probe_slots: int = 0,
        si: bool = False,
    ) -> None:
        """`lead`: columns before the usual ones; `probe_slots`: probes' columns after them
        (sim.core.probes); `si`: a run in SI units (sim.lab.engine.in_si_units)."""
        self.outputs, self.option = outputs, option
        self.count = 0
        self.probe_slots = probe_slots
        self._writer = csv.writer(self, lineterminator="\n")
        header = [*lead, *readouts.csv_header(si), *probes.header_names(probe_slots, si)]
        self._writer.writerow(header)

    def write(self, text: str) -> None:  # csv.writer's stream
        self.outputs.write(self.option, text.encode())

    def add(
        self, values: Iterable[float], lead: Sequence[str] = (), probe_values: Sequence[float] = ()
    ) -> None:
        width = self.probe_slots * len(probes.QUANTITIES)
        cells = probes.csv_cells(probe_values[:width]) if width else []
        self._writer.writerow([*lead, *readouts.csv_cells(values), *cells])
        self.count += 1


class StopOnInterrupt:
    """While inside, the first Ctrl+C (SIGINT) asks the run to stop after the step it is in, so
    the CSV ends on a whole row; a second one interrupts at once (KeyboardInterrupt). Leaves a
    SIGINT that was ignored (nohup) or handled by someone else as it was."""

    def __init__(self) -> None:
        self.requested = False
        self._installed = False

    def __enter__(self) -> StopOnInterrupt:
        if (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        ):
            signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.requested = True
        signal.signal(signal.SIGINT, signal.default_int_handler)

    def __exit__(self, *exc_info: object) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, signal.default_int_handler)


class Progress:
    """A progress line on stderr, redrawn every PROGRESS_EVERY_S during a run (10⁷ steps are
    ten minutes), only when stderr is a terminal: there a carriage return redraws one line, in a
    log it would add hundreds."""

    def __init__(self, total: int, stream: TextIO | None = None, unit: str = "step") -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = total
        self.unit = unit  # what is counted: steps, or a sweep's variants
        try:
            self.enabled = total > 0 and self.stream.isatty()
        except (AttributeError, ValueError):  # no stream, or a closed one
            self.enabled = False
        self.started = time.monotonic()
        self._next = 0.0
        self._shown = False

    def show(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now < self._next:
            return
        self._next = now + PROGRESS_EVERY_S
        text = f"{self.unit} {done:_} of {self.total:_} ({100 * done / self.total:.1f} %)"
        elapsed = now - self.started
        if done and elapsed > 0:
            rate = done / elapsed
            shown = f"{rate:_.0f}" if rate >= 10 else f"{rate:.2g}"  # a sweep's 0.3 variants/s
            text += f", {shown} {self.unit}s/s, {_duration((self.total - done) / rate)} left"
        self.stream.write(f"\r{text}\x1b[K")  # back to the line's start, clear what is left
        self.stream.flush()
        self._shown = True

    def clear(self) -> None:
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes = seconds / 60
    if minutes < 60:
        return f"{minutes:.0f} min"
    return f"{minutes // 60:.0f} h {minutes % 60:.0f} min"


def _number(value: float) -> str:
    if isinstance(value, int):
        return str(value)
    return "-" if math.isnan(value) else f"{value:.6g}"


# --- scenes ----------------------------------------------------------------------------------


def scenes_command(args: argparse.Namespace) -> int:
    from clothlab.sim.document.presets import load_preset, preset_names

    names = preset_names()
    width = max(map(len, names))
    for name in names:
        scene = load_preset(name)
        print(f"{name:<{width}}  {one_line(scene.description, limit=10_000)}")
    return 0
