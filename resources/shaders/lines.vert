#version 330 core
// Links, wires and the selection outline. Vertices are lifted a little towards the eye so
// lines lying on the cloth win the depth test without fighting it.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_color;

uniform mat4 u_view_projection;
uniform vec3 u_eye;
uniform float u_lift;  // model units

out vec3 v_color;

void main() {
    vec3 towards_eye = u_eye - a_position;
    float distance_to_eye = max(length(towards_eye), 1e-6);
    vec3 lifted = a_position + towards_eye * (min(u_lift, 0.5 * distance_to_eye) / distance_to_eye);
    v_color = a_color;
    gl_Position = u_view_projection * vec4(lifted, 1.0);
}
