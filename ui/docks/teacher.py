"""The teacher's passphrase: what class mode asks before it lets anyone leave it, edit the set's
questions or open another set. A set without a passphrase asks nothing (sets made before
passphrases, and class modes without one, behave as they did)."""

from __future__ import annotations

from PySide6.QtWidgets import QInputDialog, QLineEdit, QMessageBox, QWidget

from clothlab.sim.lab.questions import ClassMode
from clothlab.sim.text import tr


def teacher_allows(parent: QWidget, mode: ClassMode | None) -> bool:
    """True if `mode` has no teacher's passphrase, or the one typed now is it."""
    if mode is None or mode.teacher is None:
        return True
    dialog = QInputDialog(parent)
    dialog.setObjectName("teacher_passphrase")
    dialog.setWindowTitle(tr("Teacher's passphrase"))
    dialog.setLabelText(tr("Class mode: only the teacher may do this. Passphrase:"))
    dialog.setTextEchoMode(QLineEdit.EchoMode.Password)
    if not dialog.exec():
        return False
    if mode.teacher_holds(dialog.textValue()):
        return True
    QMessageBox.warning(parent, tr("Teacher's passphrase"), tr("That is not the passphrase."))
    return False
