#version 330 core
uniform vec3 u_color;
uniform float u_dim;  // 0: the colour itself; towards 1: darker (the halo, hidden parts)

out vec4 frag_color;

void main() {
    frag_color = vec4(u_color * (1.0 - u_dim), 1.0);
}
