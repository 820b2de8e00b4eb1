#version 330 core
// An anti-aliased checker that melts into the backdrop with distance.
in vec3 v_world;

uniform vec3 u_eye;
uniform float u_cell;            // checker square size, model units
uniform vec2 u_viewport_size;    // physical pixels, to match the backdrop gradient
uniform vec3 u_top_color;
uniform vec3 u_horizon_color;
uniform vec3 u_key_direction;

out vec4 frag_color;

vec3 backdrop(float v) { return mix(u_horizon_color, u_top_color, smoothstep(0.15, 1.0, v)); }

void main() {
    vec2 p = v_world.xz / u_cell;
    // Box-filtered checker: average the pattern over the pixel footprint so it never aliases.
    vec2 w = max(fwidth(p), vec2(1e-4));
    vec2 i = 2.0 * (abs(fract((p - 0.5 * w) / 2.0) - 0.5) - abs(fract((p + 0.5 * w) / 2.0) - 0.5)) / w;
    float checker = 0.5 - 0.5 * i.x * i.y;
    vec3 dark = vec3(0.095, 0.115, 0.175);
    vec3 light = vec3(0.150, 0.175, 0.250);
    vec3 color = mix(dark, light, checker);
    // A soft pool of light under the scene so the floor has depth.
    float radial = length(v_world.xz);
    color *= 1.0 + 0.35 * exp(-radial * radial / 6.0);

    float distance_to_eye = length(v_world - u_eye);
    float fade = smoothstep(6.0, 22.0, distance_to_eye);
    vec3 sky = backdrop(gl_FragCoord.y / u_viewport_size.y);
    frag_color = vec4(mix(color, sky, fade), 1.0);
}
