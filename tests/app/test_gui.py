"""`clothlab` GUI arguments, and the screenshot mode end to end in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from clothlab.app import gui

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--bogus"], "unrecognized arguments"),
        (["no-such-scene"], "no such preset or file"),
        (["hanging-sheet", "--screenshot", "shot.jpg"], "must end in .png"),
        (["hanging-sheet", "--screenshot", "/no/such/folder/shot.png"], "does not exist"),
        (["--screenshot", "shot.png", "--after", "-1"], "outside"),
        (["--screenshot", "shot.png", "--after", "soon"], "expected a number"),
        (["--after", "1"], "only makes sense with --screenshot"),
        (["a", "b"], "unrecognized arguments"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, argv, fragment):
    assert gui.main(argv) == gui.EXIT_BAD_INPUT
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("clothlab: error: ")
    assert fragment in captured.err


def test_bad_scene_file_exits_2_naming_the_file(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert gui.main([str(bad)]) == gui.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "bad.json" in err and "not valid JSON" in err


def test_preset_and_file_are_resolved(tmp_path):
    _, scene, path = gui.parse(["soft-block"])
    assert scene.name == "Soft block" and path is None
    copy = tmp_path / "mine.json"
    copy.write_bytes((ROOT / "resources/scenes/flag.json").read_bytes())
    _, scene, path = gui.parse([str(copy)])
    assert path == copy


def test_a_recording_on_the_command_line_opens_to_be_replayed(tmp_path):
    """`clothlab FILE` opens what File ▸ Open opens: a recording is replayed, not refused."""
    from clothlab.sim.document.presets import load_preset
    from clothlab.sim.document.recording import Recording, save_recording

    recording = Recording(load_preset("hanging-sheet"), (), 120)
    save_recording(recording, tmp_path / "run.clothrec.json")
    _, opened, path = gui.parse([str(tmp_path / "run.clothrec.json")])
    assert opened == recording and path is None


def test_a_question_set_on_the_command_line_opens_in_the_questions_panel(tmp_path):
    """`clothlab "Class 9c (1).json"`: the set is for the Questions panel, over the
    default scene, rather than refused as a scene of the wrong format."""
    import shutil

    from clothlab.sim.document.presets import DEFAULT_PRESET

    path = tmp_path / "Class 9c (1).json"
    shutil.copy(ROOT / "resources/questions/lab.json", path)
    args, scene, scene_path = gui.parse([str(path)])
    assert args.question_set == path and scene_path is None
    assert scene.name == gui.resolve_scene(DEFAULT_PRESET)[0].name


def test_screenshot_mode_saves_the_window(qapp, tmp_path):
    from PySide6.QtGui import QImage

    shot = tmp_path / "shot.png"
    env = {**os.environ, "PYQTGRAPH_QT_LIB": "PySide6"}
    env.pop("QT_QPA_PLATFORM", None)  # the real platform: the viewport needs OpenGL
    result = subprocess.run(
        [sys.executable, "-m", "clothlab.app.gui", "hanging-sheet", "--screenshot", str(shot),
         "--after", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    image = QImage(str(shot))
    assert not image.isNull()
    assert (image.width(), image.height()) == gui.SCREENSHOT_SIZE
    # not uniform: sample a grid of pixels and expect many distinct colours
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 37) for y in range(0, image.height(), 23)
    }
    assert len(colours) > 20


def test_what_start_up_made_is_kept_out_of_full_collections(tmp_path):
    """A full collection walked the ~190 000 objects of numba, Qt, pyqtgraph
    and the window, 40–80 ms of a pin move. The app sets them aside once it is up, so a full
    collection walks a small fraction of what is alive."""
    probe = (
        "import gc, sys\n"
        "from clothlab.app import gui\n"
        "status = gui.main(['hanging-sheet', '--screenshot', sys.argv[1], '--after', '0.5'])\n"
        "print(status, gc.get_freeze_count(), len(gc.get_objects()))\n"
    )
    env = {**os.environ, "PYQTGRAPH_QT_LIB": "PySide6"}
    env.pop("QT_QPA_PLATFORM", None)  # the real platform: the viewport needs OpenGL
    result = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "shot.png")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    status, frozen, walked = map(int, result.stdout.split())
    assert status == 0
    assert frozen > 100_000  # numba, Qt, pyqtgraph and the window
    assert walked < frozen / 5
