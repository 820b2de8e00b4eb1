"""The desktop app: `clothlab [SCENE_OR_FILE] [--screenshot FILE.png] [--after SECONDS]`.

Bad arguments and unreadable scene files end in one line on stderr and exit status 2, before
any window opens.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import sys
from pathlib import Path

# In the app the solver shares 2 cores with the GUI and software OpenGL: OpenMP threads that
# spin at the per-colour barriers would take a core the renderer needs, so they sleep instead.
# Automatic mode times one thread against two (sim.core.ordering.ThreadChooser) and so takes one
# where sleeping makes two slower; the app's frame rates are the same either way. Headless,
# spinning is faster, so only the app sets this, before numba starts OpenMP.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from clothlab.app.errors import Parser, UsageError
from clothlab.app.main import HEADLESS_COMMANDS
from clothlab.sim.document.files import describe, resolved
from clothlab.sim.document.presets import DEFAULT_PRESET, resolve_scene
from clothlab.sim.document.recording import Recording, is_recording_file, load_recording
from clothlab.sim.document.scene import Scene, SceneError
from clothlab.sim.text import LANGUAGES

EXIT_BAD_INPUT = 2
DEFAULT_AFTER_S = 2.0
SCREENSHOT_SIZE = (1280, 800)
NO_DISPLAY = "no display: use `clothlab run` headless or start under xvfb-run"


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not (math.isfinite(value) and 0.0 <= value <= 3600.0):
        raise argparse.ArgumentTypeError(f"{text} is outside 0…3600 s")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="clothlab", description="Cloth Lab, a desktop physics lab for cloth.",
        epilog=f"Without a display: clothlab {{{','.join(HEADLESS_COMMANDS)}}} … (clothlab "
        "COMMAND --help says what each does).",
    )  # fmt: skip
    parser.add_argument(
        "scene", nargs="?", default=DEFAULT_PRESET,
        help=f"preset name or scene file (default {DEFAULT_PRESET})",
    )  # fmt: skip
    parser.add_argument(
        "--screenshot", type=Path, metavar="FILE.png",
        help="run, save an image of the whole window to FILE.png and exit",
    )  # fmt: skip
    parser.add_argument(
        "--reset-settings", action="store_true",
        help="forget the stored window layout, view options and recent files, then start",
    )  # fmt: skip
    parser.add_argument(
        "--language", choices=sorted(LANGUAGES), metavar="CODE",
        help="the language to speak: " + ", ".join(f"{c} ({n})" for c, n in LANGUAGES.items())
        + " (default: Edit ▸ Preferences ▸ Language, else the system's)",
    )  # fmt: skip
    parser.add_argument(
        "--after", type=_seconds, default=DEFAULT_AFTER_S, metavar="SECONDS",
        help=f"wall-clock seconds to run before --screenshot (default {DEFAULT_AFTER_S:g})",
    )  # fmt: skip
    return parser


def no_display() -> bool:
    """True where Qt would find no screen to open a window on: on Linux and the BSDs, no X
    display or Wayland compositor named in the environment, and no QT_QPA_PLATFORM that draws
    without one (offscreen, eglfs, vnc, …). Qt itself then aborts with seven lines that end in
    "Reinstalling the application may fix this problem"."""
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return False  # Windows and macOS always have their own
    x11, wayland = bool(os.environ.get("DISPLAY")), bool(os.environ.get("WAYLAND_DISPLAY"))
    # "wayland;xcb" lists platforms to try in turn; "vnc:size=800x600" gives one options
    chosen = [entry.split(":")[0] for entry in os.environ.get("QT_QPA_PLATFORM", "").split(";")]
    chosen = [name for name in chosen if name]
    if not chosen:
        return not (x11 or wayland)
    for name in chosen:
        needs_x11, needs_wayland = name == "xcb", name.startswith("wayland")
        if (needs_x11 and x11) or (needs_wayland and wayland):
            return False
        if not (needs_x11 or needs_wayland):
            return False  # a platform that draws without a desktop
    return True


def parse(argv: list[str]) -> tuple[argparse.Namespace, Scene | Recording, Path | None]:
    """Arguments and the scene (or recording, to replay) they name; raises UsageError with a
    one-line message."""
    args = build_parser().parse_args(argv)
    speak(args.language)  # before the scene loads: a preset's name is in the language too
    if args.screenshot is not None:
        if args.screenshot.suffix.lower() != ".png":
            raise UsageError(f"--screenshot: {args.screenshot} must end in .png")
        try:
            folder = resolved(args.screenshot).parent
        except OSError as error:  # a loop of symbolic links
            raise UsageError(f"--screenshot: {args.screenshot}: {describe(error)}") from None
        if not folder.is_dir():
            raise UsageError(f"--screenshot: folder {args.screenshot.parent} does not exist")
    elif "--after" in argv:
        raise UsageError("--after only makes sense with --screenshot")
    args.question_set = None  # a question set named instead of a scene: the panel opens it
    try:
        if is_recording_file(args.scene):
            return args, load_recording(args.scene), None
        scene, path = resolve_scene(args.scene)
    except SceneError as error:
        from clothlab.sim.lab.questions import FORMAT as QUESTIONS_FORMAT  # here: it is heavy

        if error.format_found != QUESTIONS_FORMAT:
            raise UsageError(str(error)) from None
        args.question_set = Path(args.scene)  # with the default scene under it
        scene, path = resolve_scene(DEFAULT_PRESET)
    return args, scene, path


def speak(requested: str | None) -> None:
    """Install the language the window will speak: `requested`, or the preference's, or the
    system's (app.language). Reads the settings store: Qt's core only, no display yet."""
    from clothlab.app import language
    from clothlab.ui.window import preferences

    language.install(language.chosen(requested, preferences.language()))


def main(argv: list[str]) -> int:
    try:
        args, scene, path = parse(argv)
        if no_display():
            raise UsageError(NO_DISPLAY)
    except UsageError as error:
        print(f"clothlab: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return run(scene, path, args.screenshot, args.after, args.reset_settings, args.question_set)


def run(
    scene: Scene | Recording,
    path: Path | None,
    screenshot: Path | None,
    after: float,
    reset_settings: bool = False,
    question_set: Path | None = None,
) -> int:
    # Qt and pyqtgraph only now: argument errors above must not pay for (or need) a display.
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QSurfaceFormat
    from PySide6.QtWidgets import QApplication

    from clothlab.app import language
    from clothlab.app.compare_runner import CompareRunner
    from clothlab.app.controller import Controller
    from clothlab.ui.viewport.viewport import surface_format
    from clothlab.ui.window.main_window import MainWindow
    from clothlab.ui.window.preferences import APPLICATION, ORGANIZATION, settings

    QSurfaceFormat.setDefaultFormat(surface_format())  # one format for every GL context
    app = QApplication.instance() or QApplication([sys.argv[0]])
    assert isinstance(app, QApplication)  # a window needs the GUI application
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName(APPLICATION)
    if reset_settings:
        settings().clear()
        print("clothlab: stored settings cleared; starting with the defaults", file=sys.stderr)
    language.attach(app)

    # The window is typed against ui.front_door's Protocols: handing it the app's Controller and
    # CompareRunner here is where the type check proves that they fit them.
    controller = Controller()
    window = MainWindow(controller, remember_layout=screenshot is None)
    window.compare_panel.attach(CompareRunner(controller, controller))  # app-layer runs
    if isinstance(scene, Recording):
        controller.play(scene)
    else:
        controller.load(scene, path)
    if screenshot is not None:
        window.resize(*SCREENSHOT_SIZE)
    window.show()
    controller.set_running(True)
    if question_set is not None:  # `clothlab "Class 9c.json"`: the set, in the Questions panel
        window.open_question_set_file(question_set)

    autosaver = None  # the screenshot mode neither autosaves nor asks about recovery
    keeper = None
    if screenshot is None:
        from clothlab.app.autosave import Autosaver, offer_recovery

        autosaver = Autosaver(controller, window.viewport.camera_spec)
        autosaver.failed.connect(lambda message: window.statusBar().showMessage(message, 10_000))
        from clothlab.app.lesson_keeper import LessonKeeper

        keeper = LessonKeeper(window.questions_panel)
        # the lesson first (it loads its question's scene), then the scene's own recovery
        QTimer.singleShot(0, lambda: (keeper.restore(), offer_recovery(window, autosaver)))

    status = {"code": 0}
    if screenshot is not None:

        def capture() -> None:
            try:
                window.save_screenshot(screenshot)
            except OSError as error:
                print(f"clothlab: error: {screenshot}: {describe(error)}", file=sys.stderr)
                status["code"] = 1
            window.close()

        QTimer.singleShot(round(after * 1000), capture)
    freeze_start_up_heap()
    app.exec()
    if autosaver is not None:
        autosaver.finish()  # a clean exit: nothing is left to recover
    if keeper is not None:
        keeper.finish()
    controller.shutdown()
    return status["code"]


def freeze_start_up_heap() -> None:
    """Keep what start-up made out of the collector's full passes. A full pass walks every
    container alive: after start-up (numba, Qt, pyqtgraph, the window) about 190 000, which
    took 40–80 ms, and an edit that set one off took that much longer (a pin move with 10 000
    pins: 33 ms, 117 ms with one). Those objects live as long as the app, so gc.freeze sets
    them aside for good; full passes then walk what came later (4–8 ms at 3 000 edits)."""
    gc.collect()  # what is garbage now is not set aside with the rest
    gc.freeze()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
