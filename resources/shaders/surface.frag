#version 330 core
// Two-sided Lambert with hemisphere ambient, a soft fill and a little Blinn-Phong specular.
// Sheets (fabric.z ≥ 0) also get a faint plain weave and a darker stitched hem band.
in vec3 v_world;
in vec3 v_normal;
in vec3 v_strain_color;
in vec3 v_front;
in vec3 v_back;
in vec4 v_fabric;

uniform vec3 u_eye;
uniform vec3 u_key_direction;   // unit, towards the key light
uniform vec3 u_fill_direction;  // unit, towards the fill light
uniform vec4 u_tint;            // rgb replaces the vertex colour by the fraction a
uniform float u_stretch;        // 1: colour by stretch instead of the base colours
uniform float u_shininess;
uniform float u_specular;

out vec4 frag_color;

const float PI = 3.14159265;
const float THREADS_PER_UNIT = 60.0;

vec3 to_linear(vec3 c) { return pow(c, vec3(2.2)); }

// Over-under threads, faded out before they would alias into moiré.
float weave(vec2 uv) {
    vec2 t = uv * THREADS_PER_UNIT;
    float footprint = max(fwidth(t.x), fwidth(t.y));
    float visibility = 1.0 - smoothstep(0.25, 0.6, footprint);
    vec2 cell = floor(t);
    vec2 f = fract(t) - 0.5;
    bool warp_on_top = mod(cell.x + cell.y, 2.0) < 1.0;
    float across = warp_on_top ? f.x : f.y;  // the top thread's profile
    float bump = 1.0 - 4.0 * across * across;
    return visibility * (bump - 0.5);
}

void main() {
    float length_n = length(v_normal);
    vec3 n = length_n > 1e-8 ? v_normal / length_n : vec3(0.0, 1.0, 0.0);
    // The cloth is a single layer: light whichever side faces the eye.
    if (!gl_FrontFacing) n = -n;
    // Where cloth is folded flat onto itself the vertex normals average over faces turned both
    // ways and can point into the face: follow the face itself there, or the fold turns dark.
    vec3 face = cross(dFdx(v_world), dFdy(v_world));
    if (dot(face, u_eye - v_world) < 0.0) face = -face;
    if (dot(n, face) < 0.0) n = -n;
    vec3 base = gl_FrontFacing ? v_front : v_back;
    base = mix(base, v_strain_color, u_stretch);
    base = mix(base, u_tint.rgb, u_tint.a);

    if (v_fabric.z >= 0.0) {
        // Distance to the border in hem widths: below 1 is the hem band.
        float edge = min(v_fabric.z, v_fabric.w);
        float aa = max(fwidth(edge), 1e-4);
        float band = 1.0 - smoothstep(1.0 - aa, 1.0 + aa, edge);
        base = mix(base, base * vec3(0.62, 0.56, 0.58), band);
        // A running stitch along the middle of the hem.
        float stitch_line = 1.0 - smoothstep(0.08, 0.08 + 1.5 * aa, abs(edge - 0.5));
        float along = (v_fabric.x + v_fabric.y) / 0.07;
        float dashes = step(0.45, fract(along));
        stitch_line *= 1.0 - smoothstep(0.3, 0.8, fwidth(along));
        base = mix(base, mix(base, vec3(1.0, 0.92, 0.85), 0.45), stitch_line * dashes);
        base *= 1.0 + 0.10 * weave(v_fabric.xy);
    }
    base = to_linear(clamp(base, 0.0, 1.0));

    vec3 view = normalize(u_eye - v_world);
    float hemi = 0.5 + 0.5 * n.y;
    vec3 ambient = mix(vec3(0.10, 0.09, 0.10), vec3(0.20, 0.23, 0.32), hemi);
    // Slightly wrapped diffuse: fabric scatters light past the terminator.
    float key = max((dot(n, u_key_direction) + 0.15) / 1.15, 0.0);
    float fill = max(dot(n, u_fill_direction), 0.0);
    vec3 light = ambient + key * vec3(1.00, 0.95, 0.88) * 1.05 + fill * vec3(0.35, 0.42, 0.60);

    vec3 halfway = normalize(u_key_direction + view);
    float specular = pow(max(dot(n, halfway), 0.0), u_shininess) * u_specular;
    specular *= step(0.0, dot(n, u_key_direction));
    // A faint rim makes silhouettes read against the dark backdrop.
    float rim = pow(1.0 - max(dot(n, view), 0.0), 3.0) * 0.12;

    vec3 color = base * light + vec3(specular) + rim * vec3(0.55, 0.65, 0.9);
    frag_color = vec4(pow(color, vec3(1.0 / 2.2)), 1.0);
}
