/* The default theme's colours tell node types (and missions) apart for
 * colour-blind players too: every pair of type colours, as printed (the
 * outline in the colour itself, the fill print/sheet.c's cb_type_fill for
 * types, its tint for missions), differs
 * by at least a minimum CIELAB Delta E 1976 under normal vision and under
 * simulated protanopia, deuteranopia and tritanopia (Machado, Oliveira and
 * Fernandes 2009, severity 1.0, applied to linear sRGB). The simulation is
 * written here, not taken from the library. A palette known to fail (the
 * theme's colours before this test) proves the test can fail. */
#include "test.h"

#include <math.h>
#include <stdio.h>

#include "cutboard.h"
#include "print/sheet.h"

/* Smallest Delta E over every pair and every vision (measured for the
 * shipped theme: types 20.5 outline, 9.9 fill; missions 33.1, 11.6). */
#define TYPE_OUTLINE_MIN 20.0
#define TYPE_FILL_MIN 7.0
#define MISSION_OUTLINE_MIN 30.0
#define MISSION_FILL_MIN 10.0

enum { VISIONS = 4 };
static const char *vision_name[VISIONS] = {"normal", "protanopia", "deuteranopia", "tritanopia"};
static const double machado[VISIONS][3][3] = {
    {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
    {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216},
     {-0.003882, -0.048116, 1.051998}},
    {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413},
     {-0.011820, 0.042940, 0.968881}},
    {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602},
     {0.004733, 0.691367, 0.303900}},
};

static double linear(double c)
{
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double lab_f(double t)
{
    return t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116;
}

/* sRGB (0..1) as seen with vision V, in CIELAB (D65). */
static void to_lab(cb_rgb c, int v, double lab[3])
{
    double in[3] = {linear(c.r), linear(c.g), linear(c.b)}, l[3];
    for (int i = 0; i < 3; i++) {
        double s = 0;
        for (int j = 0; j < 3; j++)
            s += machado[v][i][j] * in[j];
        l[i] = s < 0 ? 0 : s > 1 ? 1 : s;
    }
    double x = 0.4124564 * l[0] + 0.3575761 * l[1] + 0.1804375 * l[2];
    double y = 0.2126729 * l[0] + 0.7151522 * l[1] + 0.0721750 * l[2];
    double z = 0.0193339 * l[0] + 0.1191920 * l[1] + 0.9503041 * l[2];
    double fx = lab_f(x / 0.95047), fy = lab_f(y), fz = lab_f(z / 1.08883);
    lab[0] = 116 * fy - 16;
    lab[1] = 500 * (fx - fy);
    lab[2] = 200 * (fy - fz);
}

static double delta_e(cb_rgb a, cb_rgb b, int v)
{
    double la[3], lb[3];
    to_lab(a, v, la);
    to_lab(b, v, lb);
    return sqrt((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1]) +
                (la[2] - lb[2]) * (la[2] - lb[2]));
}

typedef struct {
    double outline, fill;          /* smallest Delta E */
    int i, j, v;                   /* where the fill's smallest is */
} spread;

/* The N colours C and their fills FILL (NULL: their tints). */
static spread smallest(const cb_rgb *c, const cb_rgb *fill, int n)
{
    spread s = {INFINITY, INFINITY, 0, 0, 0};
    for (int v = 0; v < VISIONS; v++)
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                double o = delta_e(c[i], c[j], v);
                double f = fill ? delta_e(fill[i], fill[j], v)
                                : delta_e(cb_tint(c[i]), cb_tint(c[j]), v);
                s.outline = fmin(s.outline, o);
                if (f < s.fill)
                    s.fill = f, s.i = i, s.j = j, s.v = v;
            }
    return s;
}

static cb_rgb hex(const char *h)
{
    unsigned r, g, b;
    sscanf(h, "#%02x%02x%02x", &r, &g, &b);
    cb_rgb c = {r / 255.0, g / 255.0, b / 255.0};
    return c;
}

/* Every pair of the N colours C (named NAMES) at least OUTLINE_MIN apart as
 * outlines and FILL_MIN as fills, for every vision; the smallest printed. */
static void check_palette(const char *what, const cb_rgb *c, const cb_rgb *fill,
                          const char *const *names, int n, double outline_min, double fill_min)
{
    assert_true(n >= 2);
    spread s = smallest(c, fill, n);
    printf("%s: smallest Delta E %.1f outline, %.1f fill (%s vs %s, %s)\n", what, s.outline,
           s.fill, names[s.i], names[s.j], vision_name[s.v]);
    assert_true(s.outline >= outline_min);
    assert_true(s.fill >= fill_min);
}

static void test_default_types(void **state)
{
    (void)state;
    cb_rgb c[64], fill[64];
    const char *names[64];
    int n = (int)default_theme->n_types;
    assert_true(n <= 64);
    for (int i = 0; i < n; i++) {
        c[i] = cb_rgb_of(default_theme->types[i].rgb);
        fill[i] = cb_type_fill(default_theme, i, 0);
        names[i] = default_theme->types[i].name;
    }
    check_palette("types", c, fill, names, n, TYPE_OUTLINE_MIN, TYPE_FILL_MIN);
}

static void test_default_missions(void **state)
{
    (void)state;
    cb_rgb c[64];
    const char *names[64];
    int n = (int)default_theme->n_missions;
    assert_true(n <= 64);
    for (int i = 0; i < n; i++) {
        c[i] = cb_rgb_of(default_theme->missions[i].rgb);
        names[i] = default_theme->missions[i].name;
    }
    check_palette("missions", c, NULL, names, n, MISSION_OUTLINE_MIN, MISSION_FILL_MIN);
}

/* The type colours the theme had before, filled with a 22 % tint: lantern
 * and key had the same fill under deuteranopia. The check must catch that. */
static void test_old_palette_fails(void **state)
{
    (void)state;
    static const char *old[] = {"#c0392b", "#b7791f", "#332288", "#117733", "#aa4499",
                                "#7b5030", "#1f78b4", "#8c8c1e", "#2e8b7a", "#882255"};
    cb_rgb c[10];
    for (int i = 0; i < 10; i++)
        c[i] = hex(old[i]);
    spread s = smallest(c, NULL, 10);
    assert_true(s.outline < TYPE_OUTLINE_MIN);
    assert_true(s.fill < TYPE_FILL_MIN);
    /* lantern vs key: 30 apart normally, 3.4 for a deuteranope, and their
     * old 22 % fills not even 0.1 */
    assert_true(delta_e(c[1], c[7], 0) > 25 && delta_e(c[1], c[7], 2) < 5);
    cb_rgb lantern = {0.22 * c[1].r + 0.78, 0.22 * c[1].g + 0.78, 0.22 * c[1].b + 0.78};
    cb_rgb key = {0.22 * c[7].r + 0.78, 0.22 * c[7].g + 0.78, 0.22 * c[7].b + 0.78};
    assert_true(delta_e(lantern, key, 2) < 0.1);
}

/* The simulation itself, on colours whose fate is known: grey stays grey
 * under every vision, and pure red and green, far apart normally, come close
 * for a deuteranope. */
static void test_simulation(void **state)
{
    (void)state;
    cb_rgb grey = {0.5, 0.5, 0.5}, red = {0.8, 0.2, 0.1}, green = {0.35, 0.55, 0.1};
    for (int v = 0; v < VISIONS; v++) {
        double l0[3], l1[3];
        to_lab(grey, 0, l0);
        to_lab(grey, v, l1);
        assert_true(fabs(l0[0] - l1[0]) < 1 && fabs(l1[1]) < 1.5 && fabs(l1[2]) < 1.5);
    }
    assert_true(delta_e(red, green, 0) > 50);
    assert_true(delta_e(red, green, 2) < 0.5 * delta_e(red, green, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simulation),
        cmocka_unit_test(test_default_types),
        cmocka_unit_test(test_default_missions),
        cmocka_unit_test(test_old_palette_fails),
    };
    return cmocka_run_group_tests(tests, load_default_theme, free_default_theme);
}
