/* Benchmark-only baseline: the classic Gauss–Seidel step in plain C, to measure Cloth Lab's
 * numba solver against (bench/compare.py builds and runs it). Not part of the product.
 *
 *   baseline COLS ROWS PASSES STEPS ORDER   (ORDER: family | colour)
 *
 * Same model as sim/core/kernels.py step_classic: Verlet predict (damping 0.994, gravity 9.8,
 * Δt = 1/120), then PASSES passes over the links, each followed by the floor. The sheet hangs
 * from its two top corners. Prints: steps/s and link projections/s. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct { int a, b; double rest; } Link;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int add(Link *links, int m, const double *x, int a, int b) {
    double dx = x[3 * b] - x[3 * a], dy = x[3 * b + 1] - x[3 * a + 1];
    links[m].a = a;
    links[m].b = b;
    links[m].rest = sqrt(dx * dx + dy * dy);
    return m + 1;
}

/* Family order (all across, all down, each diagonal family) or colour order (each family
 * split by the parity of the column or row, so that no two consecutive links share a particle
 * within a set). */
static int build_links(Link *links, const double *x, int cols, int rows, int colour) {
    int m = 0;
    for (int parity = 0; parity < (colour ? 2 : 1); parity++)
        for (int r = 0; r < rows; r++)
            for (int c = 0; c + 1 < cols; c++)
                if (!colour || c % 2 == parity) m = add(links, m, x, r * cols + c, r * cols + c + 1);
    for (int parity = 0; parity < (colour ? 2 : 1); parity++)
        for (int r = 0; r + 1 < rows; r++)
            if (!colour || r % 2 == parity)
                for (int c = 0; c < cols; c++) m = add(links, m, x, r * cols + c, (r + 1) * cols + c);
    for (int parity = 0; parity < (colour ? 2 : 1); parity++)
        for (int r = 0; r + 1 < rows; r++)
            if (!colour || r % 2 == parity)
                for (int c = 0; c + 1 < cols; c++)
                    m = add(links, m, x, r * cols + c, (r + 1) * cols + c + 1);
    for (int parity = 0; parity < (colour ? 2 : 1); parity++)
        for (int r = 0; r + 1 < rows; r++)
            if (!colour || r % 2 == parity)
                for (int c = 0; c + 1 < cols; c++)
                    m = add(links, m, x, r * cols + c + 1, (r + 1) * cols + c);
    return m;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: baseline COLS ROWS PASSES STEPS family|colour\n");
        return 2;
    }
    int cols = atoi(argv[1]), rows = atoi(argv[2]), passes = atoi(argv[3]), steps = atoi(argv[4]);
    int colour = argv[5][0] == 'c';
    int n = cols * rows;
    double *x = malloc(sizeof(double) * 3 * n), *xp = malloc(sizeof(double) * 3 * n);
    double *w = malloc(sizeof(double) * n);
    Link *links = malloc(sizeof(Link) * 4 * n);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int i = r * cols + c;
            x[3 * i] = (c - (cols - 1) / 2.0) * 0.2;
            x[3 * i + 1] = 1.0 - r * 0.2;
            x[3 * i + 2] = 0.0;
            w[i] = (r == 0 && (c == 0 || c == cols - 1)) ? 0.0 : 1.0;
        }
    for (int k = 0; k < 3 * n; k++) xp[k] = x[k];
    int m = build_links(links, x, cols, rows, colour);
    const double dt = 1.0 / 120.0, damping = 0.994, gravity = 9.8, stiffness = 1.0, floor_y = -1e9;
    double start = now();
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++) {
            if (w[i] == 0.0) continue;
            for (int k = 0; k < 3; k++) {
                double cur = x[3 * i + k];
                x[3 * i + k] = cur + (cur - xp[3 * i + k]) * damping - (k == 1 ? gravity * dt * dt : 0.0);
                xp[3 * i + k] = cur;
            }
        }
        for (int p = 0; p < passes; p++) {
            for (int k = 0; k < m; k++) {
                int i = links[k].a, j = links[k].b;
                double wi = w[i], wj = w[j], ws = wi + wj;
                if (ws == 0.0) continue;
                double dx = x[3 * j] - x[3 * i], dy = x[3 * j + 1] - x[3 * i + 1],
                       dz = x[3 * j + 2] - x[3 * i + 2];
                double len = sqrt(dx * dx + dy * dy + dz * dz);
                if (len == 0.0) continue;
                double sc = (len - links[k].rest) * stiffness / (len * ws);
                double si = sc * wi, sj = sc * wj;
                x[3 * i] += dx * si; x[3 * i + 1] += dy * si; x[3 * i + 2] += dz * si;
                x[3 * j] -= dx * sj; x[3 * j + 1] -= dy * sj; x[3 * j + 2] -= dz * sj;
            }
            for (int i = 0; i < n; i++)
                if (w[i] != 0.0 && x[3 * i + 1] < floor_y) x[3 * i + 1] = floor_y;
        }
    }
    double elapsed = now() - start;
    double checksum = 0.0;
    for (int k = 0; k < 3 * n; k++) checksum += x[k];
    printf("%.6f %.6e %.12g\n", steps / elapsed, (double)steps * passes * m / elapsed, checksum);
    return 0;
}
