"""Reliability 3 — atomic saves.

A process saving a scene over and over is killed with SIGKILL at a random moment; the file it
was saving over is always the old or the new complete scene, never a partial one, and the temp
file a kill strands is removed by the next save of the same file.

Each trial is its own process, killed and reaped. Importing `sim` takes ~0.7 s (numpy, numba,
pydantic), so a small parent process imports it once and forks one saver per trial: the saver
starts at once, in the state a freshly started saver would be in.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from clothlab.sim.document.presets import load_preset
from clothlab.sim.document.scene import (
    Scene,
    body_counts,
    parse_scene,
    save_scene,
    scene_json,
    write_atomically,
)

ROOT = Path(__file__).resolve().parents[3]
TRIALS = 200
MAX_DELAY = 0.05  # s

SAVER = r"""
import os, sys
from clothlab.sim.document.scene import load_scene, save_scene
old, new, target = load_scene(sys.argv[1]), load_scene(sys.argv[2]), sys.argv[3]
for line in sys.stdin:
    command, _, argument = line.strip().partition(" ")
    if command == "fork":
        pid = os.fork()
        if pid == 0:  # the saver: new, old, new, … until killed
            try:
                k = 0
                while True:
                    save_scene(new if k % 2 == 0 else old, target)
                    k += 1
            finally:
                os._exit(1)
        print(pid, flush=True)
    elif command == "reap":
        print(os.waitpid(int(argument), 0)[1], flush=True)
"""


def big_scene(name: str, seed: int) -> Scene:
    """A 300 × 300 sheet with 50 000 cuts: ~0.6 MB of JSON, some 30 ms a save."""
    data = load_preset("hanging-sheet").model_dump(mode="json")
    data.update(name=name, pins=[{"particle": 0, "anchor": [-1.4, 1.0, 0.0]}])
    data["bodies"][0].update(cols=300, rows=300)
    _, links = body_counts(Scene.model_validate(data).bodies)
    cuts = np.random.default_rng(seed).choice(links, 50_000, replace=False)
    data["cuts"] = sorted(int(k) for k in cuts)
    return Scene.model_validate(data)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_save_killed_at_random_moments_leaves_the_old_or_the_new_scene(tmp_path):
    old, new = big_scene("Old scene", 1), big_scene("New scene", 2)
    sources = tmp_path / "sources"
    sources.mkdir()
    save_scene(old, sources / "old.json")
    save_scene(new, sources / "new.json")
    folder = tmp_path / "saves"
    folder.mkdir()
    target = folder / "scene.json"
    expected = {scene_json(old).encode(): ("old", old), scene_json(new).encode(): ("new", new)}
    temporary = re.compile(r"^\.scene\.json\.\d+\.[0-9a-f]{8}\.tmp$")  # with the saver's pid

    saver = subprocess.Popen(
        [sys.executable, "-c", SAVER, str(sources / "old.json"), str(sources / "new.json"),
         str(target)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )  # fmt: skip
    outcomes = {"old": 0, "new": 0}
    leftovers = 0
    trials_with_leftovers = 0
    rng = random.Random(7)
    started = time.perf_counter()
    try:
        for _ in range(TRIALS):
            write_atomically(target, scene_json(old).encode())
            # a save removes the temp files that savers killed before their rename left behind
            assert [p.name for p in folder.iterdir()] == ["scene.json"]
            saver.stdin.write("fork\n")
            saver.stdin.flush()
            pid = int(saver.stdout.readline())
            time.sleep(rng.uniform(0.0, MAX_DELAY))
            os.kill(pid, signal.SIGKILL)
            saver.stdin.write(f"reap {pid}\n")
            saver.stdin.flush()
            status = int(saver.stdout.readline())
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL

            content = target.read_bytes()
            assert content in expected, f"partial file: {len(content)} bytes"
            which, scene = expected[content]
            assert parse_scene(content, "scene.json") == scene
            outcomes[which] += 1
            others = [p.name for p in folder.iterdir() if p != target]
            assert all(temporary.match(name) for name in others), others
            leftovers += len(others)  # a SIGKILL between creating and renaming strands one
            trials_with_leftovers += bool(others)
    finally:
        saver.stdin.close()
        saver.wait(timeout=30)
    seconds = time.perf_counter() - started

    assert sum(outcomes.values()) == TRIALS
    print(
        f"\natomic saves: {TRIALS} kills in {seconds:.1f} s: target was the old scene "
        f"{outcomes['old']}×, the new scene {outcomes['new']}×, never partial; "
        f"{leftovers} temp files left behind in {trials_with_leftovers} trials (never the target), "
        "each removed by the next save"
    )
