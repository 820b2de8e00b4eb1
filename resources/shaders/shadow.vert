#version 330 core
// Flattens a solid onto the floor along the key light: a cheap planar shadow.
layout(location = 0) in vec3 a_position;

uniform mat4 u_view_projection;
uniform mat4 u_model;
uniform vec3 u_key_direction;  // unit, towards the key light
uniform float u_floor_y;

out float v_height;

void main() {
    vec3 world = (u_model * vec4(a_position, 1.0)).xyz;
    float height = max(world.y - u_floor_y, 0.0);
    vec3 flat_point = world - u_key_direction * (height / max(u_key_direction.y, 0.05));
    flat_point.y = u_floor_y + 0.002;  // just above the floor, below anything resting on it
    v_height = height;
    gl_Position = u_view_projection * vec4(flat_point, 1.0);
}
