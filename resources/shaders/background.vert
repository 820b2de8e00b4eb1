#version 330 core
// One triangle covering the screen, no vertex buffer needed.
out float v_height;  // 0 at the bottom edge, 1 at the top

void main() {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    v_height = corner.y;
    gl_Position = vec4(corner * 2.0 - 1.0, 1.0, 1.0);
}
