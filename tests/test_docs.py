"""Every code block of README.md and docs/ is run or checked (tests/doc_blocks.py says how, by
kind), and the sample outputs they show are what the commands print now. After a change that
moves a number: `python tests/doc_blocks.py --write` writes the new output into the files."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from doc_blocks import (
    ROOT,
    Block,
    Sample,
    alike,
    argv,
    every_block,
    key,
    kind,
    mismatch,
    run_clothlab,
    samples,
)

BLOCKS = every_block()
# One case per result line of a session that prints PASS/FAIL lines (each can be asked for
# alone). The drape test's line is the suite's one drape on the check's own meshes (51 and 61
# across, about a minute); the other drape tests settle coarser specimens (WIRING_MESHES).


def of_kind(name: str) -> list[Block]:
    return [block for block in BLOCKS if kind(block) == name]


def sample_cases() -> list[pytest.param]:
    cases = []
    for block in of_kind("session"):
        for sample in samples(block):
            results = [line for line in sample.shown if line.split()[:1] in (["PASS"], ["FAIL"])]
            parts = [(line,) for line in results] or [sample.shown]
            for shown in parts:
                case = Sample(block, sample.command, shown, sample.first)
                about = " ".join(key(shown[0])) if results else sample.command
                name = f"{block.name} {about}"
                cases.append(pytest.param(case, id=name))
    return cases


def test_every_block_is_of_a_kind_the_tests_check():
    unknown = [block.name for block in BLOCKS if kind(block) is None]
    assert unknown == []
    assert {kind(block) for block in BLOCKS} >= {"python", "session", "questions", "usage"}


@pytest.mark.parametrize("block", of_kind("python"), ids=lambda b: b.name)
def test_python_blocks_run(block, tmp_path):
    script = tmp_path / "block.py"
    script.write_text(block.text, encoding="utf-8")
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                            text=True, timeout=300)  # fmt: skip
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("block", of_kind("questions"), ids=lambda b: b.name)
def test_question_set_blocks_pass_their_checks(block, tmp_path, capsys):
    path = tmp_path / "set.json"
    path.write_text(block.text, encoding="utf-8")
    status, printed = run_clothlab(["questions", str(path), "--check"])
    assert status == 0, (printed, capsys.readouterr().err)
    assert printed.startswith("PASS")


@pytest.mark.parametrize("sample", sample_cases())
def test_sample_outputs_are_what_the_commands_print(sample, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, printed = run_clothlab(argv(sample))
    assert status == 0
    problem = mismatch(sample.shown, printed.splitlines())
    assert problem is None, f"{problem}: python tests/doc_blocks.py --write puts the output in"


@pytest.mark.parametrize("block", of_kind("command"), ids=lambda b: b.name)
def test_command_blocks_run(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    words = block.lines[0].split()
    assert words[0] == "clothlab"
    assert run_clothlab(words[1:])[0] == 0


@pytest.mark.parametrize("block", of_kind("make"), ids=lambda b: b.name)
def test_make_blocks_name_the_makefiles_targets(block):
    targets = set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.MULTILINE))
    for line in block.lines:
        assert line.split()[1] in targets, line


@pytest.mark.parametrize("block", of_kind("usage"), ids=lambda b: b.name)
def test_the_synopsis_names_only_what_the_command_line_takes(block, capsys):
    from clothlab.app import cli, gui

    app = gui.build_parser()  # `clothlab [SCENE] …`: the desktop app's options
    commands = cli.build_parser()._subparsers._group_actions[0].choices
    current = app
    for line in block.lines:
        words = line.split()
        if words[:1] == ["clothlab"]:
            name = words[1] if len(words) > 1 and words[1] in commands else None
            current = commands[name] if name else app
        options = {option for option in re.findall(r"--[a-z][\w-]*", line.split("  ")[0])}
        known = {o for action in current._actions for o in action.option_strings}
        assert options <= known, (line, options - known)


@pytest.mark.parametrize("block", of_kind("tree"), ids=lambda b: b.name)
def test_the_tree_names_folders_that_exist(block):
    parents: list[tuple[int, Path]] = []
    for line in block.lines:
        match = re.match(r"^( *)([\w.-]+)/\s", line)
        if not match:
            continue
        depth = len(match[1])
        parents = [(d, p) for d, p in parents if d < depth]
        folder = (parents[-1][1] if parents else ROOT) / match[2]
        assert folder.is_dir(), line
        parents.append((depth, folder))


def test_a_drape_line_is_held_to_its_words_and_its_figures_within_a_folds_worth():
    shown = (
        "PASS cotton cusick-drape drape coefficient 66.67 % (published: 60…76 %); 51 across, "
        "8 folds; 61 across: 67.1 % (7 folds)"
    )
    assert alike(shown, shown.replace("66.67", "68.02").replace("7 folds", "8 folds"))
    assert not alike(shown, shown.replace("66.67", "76.02"))  # more than a fold's worth
    assert not alike(shown, shown.replace("PASS", "FAIL"))
    assert not alike(shown, shown.replace("8 folds;", "8 folds, 2 specimens 60.0…61.0 %;"))
    cantilever = "PASS cotton cantilever bending length 2.206 cm"
    assert not alike(cantilever, cantilever.replace("2.206", "2.207"))  # other lines: exactly
