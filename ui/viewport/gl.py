"""OpenGL plumbing without a widget: surface format, shader programs, vertex arrays.

Everything here needs a current OpenGL 3.3 core context except `surface_format`. Shaders are
read from `SHADER_DIR` when a `Program` is built, so a test can point it somewhere else.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
from importlib.resources.abc import Traversable

import numpy as np
from OpenGL import GL
from PySide6.QtGui import QOffscreenSurface, QOpenGLContext, QSurfaceFormat

from clothlab.resources import resource
from clothlab.sim.text import QT_TR_NOOP, tr

SHADER_DIR: Traversable = resource("shaders")

# Attribute (location, size, offset in floats) per vertex buffer; locations match the shaders.
Layout = tuple[tuple[int, int, int], ...]


class GLFailureError(RuntimeError):
    """A one-line reason why the viewport cannot draw: `template` (marked with QT_TR_NOOP)
    filled with `fields`; str() is the English for the log, `shown()` the user's language."""

    def __init__(self, template: str, **fields: object) -> None:
        super().__init__(template.format(**fields))
        self.template, self.fields = template, fields

    def shown(self) -> str:
        return tr(self.template).format(**self.fields)


def surface_format(samples: int = 0) -> QSurfaceFormat:
    """OpenGL 3.3 core with depth and stencil (planar shadows). An application passes the
    default (no multisampling) to `QSurfaceFormat.setDefaultFormat` before creating
    QApplication so every context in the process agrees; only the viewport's own framebuffer
    asks for samples. The window that composes the widgets uses the default format too, and
    multisampling that 1280 × 800 surface tripled the cost of a frame under llvmpipe."""
    fmt = QSurfaceFormat()
    fmt.setRenderableType(QSurfaceFormat.RenderableType.OpenGL)
    fmt.setVersion(3, 3)
    fmt.setProfile(QSurfaceFormat.OpenGLContextProfile.CoreProfile)
    fmt.setDepthBufferSize(24)
    fmt.setStencilBufferSize(8)
    fmt.setSamples(samples)
    return fmt


@functools.cache
def software_renderer() -> bool:
    """Whether OpenGL is rendered on the CPU (Mesa llvmpipe under Xvfb or in a VM), where
    multisampling more than doubles the cost of a frame. Probed once with a throw-away context;
    needs a QGuiApplication."""
    context = QOpenGLContext()
    context.setFormat(surface_format())
    if not context.create():
        return False
    surface = QOffscreenSurface()
    surface.setFormat(context.format())
    surface.create()
    try:
        if not context.makeCurrent(surface):
            return False
        renderer = GL.glGetString(GL.GL_RENDERER) or b""
    except Exception:  # no usable GL at all: the viewport reports it when it initialises
        return False
    finally:
        context.doneCurrent()
        surface.destroy()
    return any(name in renderer.lower() for name in (b"llvmpipe", b"softpipe", b"swrast"))


class Program:
    """A linked shader program (`SHADER_DIR/name.vert` + `.frag`) and its uniform locations."""

    def __init__(self, name: str) -> None:
        self.name = name
        vertex = _compile(GL.GL_VERTEX_SHADER, SHADER_DIR / f"{name}.vert")
        fragment = _compile(GL.GL_FRAGMENT_SHADER, SHADER_DIR / f"{name}.frag")
        program = GL.glCreateProgram()
        GL.glAttachShader(program, vertex)
        GL.glAttachShader(program, fragment)
        GL.glLinkProgram(program)
        GL.glDeleteShader(vertex)
        GL.glDeleteShader(fragment)
        if not GL.glGetProgramiv(program, GL.GL_LINK_STATUS):
            message = _first_line(GL.glGetProgramInfoLog(program))
            GL.glDeleteProgram(program)
            raise GLFailureError(
                QT_TR_NOOP("shader program {name} does not link: {message}"),
                name=repr(name),
                message=message,
            )
        self.id = program
        self._locations: dict[str, int] = {}

    def use(self) -> None:
        GL.glUseProgram(self.id)

    def _location(self, uniform: str) -> int:
        if uniform not in self._locations:
            self._locations[uniform] = GL.glGetUniformLocation(self.id, uniform)
        return self._locations[uniform]

    def set_matrix(self, uniform: str, matrix: np.ndarray) -> None:
        # Row-major numpy matrix; GL_TRUE transposes it into GL's column-major order.
        data = np.ascontiguousarray(matrix, dtype=np.float32)
        GL.glUniformMatrix4fv(self._location(uniform), 1, GL.GL_TRUE, data)

    def set_vec(self, uniform: str, *values: float) -> None:
        location = self._location(uniform)
        setters = {1: GL.glUniform1f, 2: GL.glUniform2f, 3: GL.glUniform3f, 4: GL.glUniform4f}
        setters[len(values)](location, *(float(v) for v in values))

    def delete(self) -> None:
        GL.glDeleteProgram(self.id)


class Mesh:
    """A vertex array with its vertex buffers (one per layout) and optional index buffer."""

    def __init__(
        self,
        buffers: list[tuple[np.ndarray, Layout, bool]],  # (vertices, layout, dynamic)
        indices: np.ndarray | None = None,
        dynamic_indices: bool = False,
    ) -> None:
        self.vao = GL.glGenVertexArrays(1)
        GL.glBindVertexArray(self.vao)
        self.vbos: list[int] = []
        self.vertex_bytes: list[int] = []
        for vertices, layout, dynamic in buffers:
            vertices = np.ascontiguousarray(vertices, dtype=np.float32)
            usage = GL.GL_DYNAMIC_DRAW if dynamic else GL.GL_STATIC_DRAW
            vbo = GL.glGenBuffers(1)
            GL.glBindBuffer(GL.GL_ARRAY_BUFFER, vbo)
            GL.glBufferData(GL.GL_ARRAY_BUFFER, max(vertices.nbytes, 4), vertices, usage)
            stride = vertices.shape[1] * 4
            for location, size, offset in layout:
                GL.glEnableVertexAttribArray(location)
                GL.glVertexAttribPointer(
                    location, size, GL.GL_FLOAT, GL.GL_FALSE, stride, ctypes.c_void_p(offset * 4)
                )
            self.vbos.append(vbo)
            self.vertex_bytes.append(vertices.nbytes)
        self.ebo = 0
        self.index_count = 0
        if indices is not None:
            indices = np.ascontiguousarray(indices, dtype=np.uint32)
            usage = GL.GL_DYNAMIC_DRAW if dynamic_indices else GL.GL_STATIC_DRAW
            self.ebo = GL.glGenBuffers(1)
            GL.glBindBuffer(GL.GL_ELEMENT_ARRAY_BUFFER, self.ebo)  # recorded in the VAO
            GL.glBufferData(GL.GL_ELEMENT_ARRAY_BUFFER, max(indices.nbytes, 4), indices, usage)
            self.index_count = len(indices)
        GL.glBindVertexArray(0)

    def update_vertices(self, vertices: np.ndarray, buffer: int = 0, first: int = 0) -> None:
        """Replace vertices from vertex number `first` on (rows of `vertices`)."""
        GL.glBindBuffer(GL.GL_ARRAY_BUFFER, self.vbos[buffer])
        offset = first * vertices.nbytes // max(len(vertices), 1)
        GL.glBufferSubData(GL.GL_ARRAY_BUFFER, offset, vertices.nbytes, vertices)

    def update_indices(self, indices: np.ndarray, count: int) -> None:
        self.index_count = count
        if count:
            GL.glBindVertexArray(self.vao)
            GL.glBufferSubData(GL.GL_ELEMENT_ARRAY_BUFFER, 0, count * 4, indices[:count])
            GL.glBindVertexArray(0)

    def draw_elements(
        self, first: int = 0, count: int | None = None, mode: int = GL.GL_TRIANGLES
    ) -> None:
        """Draw `count` indices from index `first` on (all of them by default)."""
        count = self.index_count - first if count is None else count
        if count > 0:
            GL.glBindVertexArray(self.vao)
            GL.glDrawElements(mode, count, GL.GL_UNSIGNED_INT, ctypes.c_void_p(4 * first))

    def draw_arrays(self, mode: int, first: int, count: int) -> None:
        if count:
            GL.glBindVertexArray(self.vao)
            GL.glDrawArrays(mode, first, count)

    def delete(self) -> None:
        GL.glDeleteVertexArrays(1, [self.vao])
        GL.glDeleteBuffers(len(self.vbos), self.vbos)
        if self.ebo:
            GL.glDeleteBuffers(1, [self.ebo])


def line_width(width: float) -> None:
    """Set the line width in device pixels, clamped to 1…8."""
    # Core profiles may refuse widths above 1 (forward-compatible contexts); thin lines are a
    # fine fallback, not a failure.
    with contextlib.suppress(GL.GLError):
        GL.glLineWidth(max(1.0, min(width, 8.0)))


def _compile(kind: int, path: Traversable) -> int:
    try:
        source = path.read_text(encoding="utf-8")
    except OSError as error:
        raise GLFailureError(
            QT_TR_NOOP("cannot read shader {file}: {reason}"), file=path.name, reason=error.strerror
        ) from None
    shader = GL.glCreateShader(kind)
    GL.glShaderSource(shader, source)
    GL.glCompileShader(shader)
    if not GL.glGetShaderiv(shader, GL.GL_COMPILE_STATUS):
        message = _first_line(GL.glGetShaderInfoLog(shader))
        GL.glDeleteShader(shader)
        raise GLFailureError(
            QT_TR_NOOP("shader {file} does not compile: {message}"), file=path.name, message=message
        )
    return shader


def _first_line(log_text: bytes | str) -> str:
    text = log_text.decode(errors="replace") if isinstance(log_text, bytes) else str(log_text)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else "no log"
