/* Exact signs for the two geometric predicates, after Shewchuk, "Adaptive
 * Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates"
 * (1997): a value is carried as an expansion, a sum of doubles whose
 * magnitudes do not overlap, and sums and products of expansions are formed
 * without rounding error. The largest component has the sign of the exact
 * value. These run only when the fast double result is within its rounding
 * error (geom.h), so their speed hardly matters; they are written for
 * clarity: a product is a sum of scaled expansions.
 *
 * They need IEEE double arithmetic rounded to nearest without fused
 * multiply-adds: the Makefile builds with -ffp-contract=off for that. */
#include "base/geom.h"

/* Every expansion below has at most this many components: an in-circle
 * determinant of differences is a sum of three products of 16-component
 * expansions, at most 3 * 2 * 16 * 16 components. */
#define MAX_TERMS 1600

/* a + b = x + y exactly, x the rounded sum. */
static void two_sum(double a, double b, double *x, double *y)
{
    double s = a + b, bv = s - a, av = s - bv;
    *x = s;
    *y = (a - av) + (b - bv);
}

/* a - b = x + y exactly. */
static void two_diff(double a, double b, double *x, double *y)
{
    double s = a - b, bv = a - s, av = s + bv;
    *x = s;
    *y = (a - av) + (bv - b);
}

/* a = hi + lo with each half of at most 26 significant bits (Dekker). */
static void split(double a, double *hi, double *lo)
{
    double c = 134217729.0 * a; /* 2^27 + 1 */
    double big = c - a;
    *hi = c - big;
    *lo = a - *hi;
}

/* a * b = x + y exactly. */
static void two_product(double a, double b, double *x, double *y)
{
    double p = a * b, ahi, alo, bhi, blo;
    split(a, &ahi, &alo);
    split(b, &bhi, &blo);
    double e1 = p - ahi * bhi, e2 = e1 - alo * bhi, e3 = e2 - ahi * blo;
    *x = p;
    *y = alo * blo - e3;
}

/* h = e + b; zero components dropped. Returns h's length (<= elen + 1). */
static int grow(int elen, const double *e, double b, double *h)
{
    int hlen = 0;
    double q = b;
    for (int i = 0; i < elen; i++) {
        double sum, err;
        two_sum(q, e[i], &sum, &err);
        q = sum;
        if (err != 0)
            h[hlen++] = err;
    }
    if (q != 0 || hlen == 0)
        h[hlen++] = q;
    return hlen;
}

/* h = e + f (h must not be e or f). */
static int sum(int elen, const double *e, int flen, const double *f, double *h)
{
    double tmp[MAX_TERMS];
    int hlen = elen;
    for (int i = 0; i < elen; i++)
        h[i] = e[i];
    for (int j = 0; j < flen; j++) {
        hlen = grow(hlen, h, f[j], tmp);
        for (int i = 0; i < hlen; i++)
            h[i] = tmp[i];
    }
    return hlen;
}

/* h = e * b. */
static int scale(int elen, const double *e, double b, double *h)
{
    double q, t;
    int hlen = 0;
    two_product(e[0], b, &q, &t);
    if (t != 0)
        h[hlen++] = t;
    for (int i = 1; i < elen; i++) {
        double p1, p0, s, err;
        two_product(e[i], b, &p1, &p0);
        two_sum(q, p0, &s, &err);
        if (err != 0)
            h[hlen++] = err;
        two_sum(p1, s, &q, &err);
        if (err != 0)
            h[hlen++] = err;
    }
    if (q != 0 || hlen == 0)
        h[hlen++] = q;
    return hlen;
}

/* h = e * f. */
static int product(int elen, const double *e, int flen, const double *f, double *h)
{
    double part[MAX_TERMS], acc[MAX_TERMS];
    int hlen = 1;
    h[0] = 0;
    for (int j = 0; j < flen; j++) {
        int plen = scale(elen, e, f[j], part);
        int alen = sum(hlen, h, plen, part, acc);
        for (int i = 0; i < alen; i++)
            h[i] = acc[i];
        hlen = alen;
    }
    return hlen;
}

static int negate(int elen, double *e)
{
    for (int i = 0; i < elen; i++)
        e[i] = -e[i];
    return elen;
}

/* The largest component: the sign of the exact value, and a good
 * approximation of it. */
static double top(int elen, const double *e)
{
    return e[elen - 1];
}

double cb_orient_exact(cb_point a, cb_point b, cb_point c)
{
    double bax[2], cay[2], bay[2], cax[2];
    two_diff(b.x, a.x, &bax[1], &bax[0]);
    two_diff(c.y, a.y, &cay[1], &cay[0]);
    two_diff(b.y, a.y, &bay[1], &bay[0]);
    two_diff(c.x, a.x, &cax[1], &cax[0]);
    double l[8], r[8], det[16];
    int ll = product(2, bax, 2, cay, l);
    int rl = negate(product(2, bay, 2, cax, r), r);
    return top(sum(ll, l, rl, r, det), det);
}

/* x * x + y * y for 2-component differences. */
static int lift(const double *x, const double *y, double *h)
{
    double xx[8], yy[8];
    int xl = product(2, x, 2, x, xx), yl = product(2, y, 2, y, yy);
    return sum(xl, xx, yl, yy, h);
}

/* p * s - q * r for 2-component differences. */
static int cross(const double *p, const double *s, const double *q, const double *r, double *h)
{
    double ps[8], qr[8];
    int pl = product(2, p, 2, s, ps);
    int ql = negate(product(2, q, 2, r, qr), qr);
    return sum(pl, ps, ql, qr, h);
}

double cb_in_circle_exact(cb_point a, cb_point b, cb_point c, cb_point d)
{
    double adx[2], ady[2], bdx[2], bdy[2], cdx[2], cdy[2];
    two_diff(a.x, d.x, &adx[1], &adx[0]);
    two_diff(a.y, d.y, &ady[1], &ady[0]);
    two_diff(b.x, d.x, &bdx[1], &bdx[0]);
    two_diff(b.y, d.y, &bdy[1], &bdy[0]);
    two_diff(c.x, d.x, &cdx[1], &cdx[0]);
    two_diff(c.y, d.y, &cdy[1], &cdy[0]);
    double lifted[16], minor[16], ta[MAX_TERMS], tb[MAX_TERMS], tc[MAX_TERMS];
    double ab[MAX_TERMS], det[MAX_TERMS];
    int la = lift(adx, ady, lifted), ma = cross(bdx, cdy, bdy, cdx, minor);
    int na = product(la, lifted, ma, minor, ta);
    int lb = lift(bdx, bdy, lifted), mb = cross(cdx, ady, cdy, adx, minor);
    int nb = product(lb, lifted, mb, minor, tb);
    int lc = lift(cdx, cdy, lifted), mc = cross(adx, bdy, ady, bdx, minor);
    int nc = product(lc, lifted, mc, minor, tc);
    int nab = sum(na, ta, nb, tb, ab);
    return top(sum(nab, ab, nc, tc, det), det);
}
