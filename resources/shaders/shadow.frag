#version 330 core
in float v_height;

uniform float u_strength;

out vec4 frag_color;

void main() {
    // Shadows of things high above the floor are softer in reality; fade them a little.
    float alpha = u_strength * mix(1.0, 0.55, clamp(v_height / 3.0, 0.0, 1.0));
    frag_color = vec4(0.0, 0.0, 0.02, alpha);
}
