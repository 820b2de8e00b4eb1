#version 330 core
layout(location = 0) in vec3 a_position;  // a square in the x–z plane at y = 0

uniform mat4 u_view_projection;
uniform float u_floor_y;

out vec3 v_world;

void main() {
    v_world = vec3(a_position.x, u_floor_y, a_position.z);
    gl_Position = u_view_projection * vec4(v_world, 1.0);
}
