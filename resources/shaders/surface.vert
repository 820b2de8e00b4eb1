#version 330 core
// Cloth, blocks, ball and pin markers: one lit path for every solid.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec3 a_strain_color;  // used when u_stretch is on
layout(location = 3) in vec3 a_front;         // colour of the side the normal points to
layout(location = 4) in vec3 a_back;          // colour of the other side
layout(location = 5) in vec4 a_fabric;        // rest (u, v), distance to border, hem width

uniform mat4 u_view_projection;
// Translation and scale only: uniform, or along the axes for boxes, whose normals lie along the
// axes. Either way mat3(u_model) keeps every normal's direction (the fragment shader normalises).
uniform mat4 u_model;

out vec3 v_world;
out vec3 v_normal;
out vec3 v_strain_color;
out vec3 v_front;
out vec3 v_back;
out vec4 v_fabric;

void main() {
    vec4 world = u_model * vec4(a_position, 1.0);
    v_world = world.xyz;
    v_normal = mat3(u_model) * a_normal;
    v_strain_color = a_strain_color;
    v_front = a_front;
    v_back = a_back;
    v_fabric = a_fabric;
    gl_Position = u_view_projection * world;
}
