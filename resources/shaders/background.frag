#version 330 core
in float v_height;

uniform vec3 u_top_color;
uniform vec3 u_horizon_color;

out vec4 frag_color;

void main() {
    frag_color = vec4(mix(u_horizon_color, u_top_color, smoothstep(0.15, 1.0, v_height)), 1.0);
}
