#version 330 core
// The selection outline: every segment is a quad of two triangles, widened here to u_width
// pixels on screen (core profiles may draw lines one pixel wide only), with square caps so the
// corners of an outline close. Both ends are lifted a little towards the eye, like the
// wireframe, so an outline lying on the selected thing wins the depth test.
layout(location = 0) in vec3 a_position;  // this end of the segment
layout(location = 1) in vec3 a_other;     // the other end
layout(location = 2) in float a_side;     // ±1: which side of the segment this corner is on

uniform mat4 u_view_projection;
uniform vec3 u_eye;
uniform float u_lift;          // model units
uniform vec2 u_viewport_size;  // device pixels
uniform float u_width;         // device pixels

vec4 lifted_clip(vec3 p) {
    vec3 towards_eye = u_eye - p;
    float distance_to_eye = max(length(towards_eye), 1e-6);
    vec3 lifted = p + towards_eye * (min(u_lift, 0.5 * distance_to_eye) / distance_to_eye);
    return u_view_projection * vec4(lifted, 1.0);
}

void main() {
    vec4 here = lifted_clip(a_position);
    vec4 there = lifted_clip(a_other);
    // Pixels from this end to the other; the ends' own w keeps the offset in pixels after the
    // perspective divide. An end behind the eye (w ≤ 0) is rare for an outline: skip widening.
    vec2 along = 0.5 * (there.xy / max(there.w, 1e-6) - here.xy / max(here.w, 1e-6))
                 * u_viewport_size;
    float length_px = length(along);
    vec2 direction = length_px > 1e-6 ? along / length_px : vec2(1.0, 0.0);
    vec2 offset_px = (vec2(-direction.y, direction.x) * a_side - direction) * (0.5 * u_width);
    gl_Position = here + vec4(offset_px * (2.0 / u_viewport_size) * here.w, 0.0, 0.0);
}
