/* The finite field GF(q), q = p^m <= GF_MAX, for the Slim Fly's MMS graph.
 *
 * An element is the integer whose base-p digits are the coefficients of
 * its polynomial in x (digit i: the coefficient of x^i). The modulus is
 * the first monic polynomial of degree m, in that same order of its
 * lower coefficients, that no monic polynomial of degree 1..m/2 divides
 * (irreducible, so the quotient ring is a field); the primitive element
 * is the smallest element of multiplicative order q - 1. Both are found
 * by search, not taken from a table, and gf_init checks the second's
 * powers reach every non-zero element (which also proves the ring a
 * field: in a ring with zero divisors no unit has order q - 1). */
#include <string.h>

#include "topo/topo_internal.h"

/* The remainder of a (degree da) by the monic b (degree db), in place
 * over GF(p); returns true when it is zero. */
static bool divides(int *a, int da, const int *b, int db, int p)
{
    for (int d = da; d >= db; d--) {
        int c = a[d];
        if (!c)
            continue;
        for (int i = 0; i <= db; i++)
            a[d - db + i] = ((a[d - db + i] - c * b[i]) % p + p) % p;
    }
    for (int i = 0; i < db; i++)
        if (a[i])
            return false;
    return true;
}

/* The digits of e (base p, m of them) into c. */
static void digits(int e, int p, int m, int *c)
{
    for (int i = 0; i < m; i++, e /= p)
        c[i] = e % p;
}

static bool irreducible(const int *f, int m, int p)
{
    int g[GF_MAX_DEGREE + 1], r[GF_MAX_DEGREE + 1];
    for (int k = 1; 2 * k <= m; k++) {
        int count = 1;
        for (int i = 0; i < k; i++)
            count *= p;
        for (int e = 0; e < count; e++) { /* every monic g of degree k */
            digits(e, p, k, g);
            g[k] = 1;
            memcpy(r, f, (size_t)(m + 1) * sizeof *r);
            if (divides(r, m, g, k, p))
                return false;
        }
    }
    return true;
}

/* a b mod the modulus, on coefficient arrays. */
static int multiply(const struct gf *f, int a, int b)
{
    int x[GF_MAX_DEGREE], y[GF_MAX_DEGREE], r[2 * GF_MAX_DEGREE] = {0};
    const int p = f->p, m = f->m;
    digits(a, p, m, x);
    digits(b, p, m, y);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            r[i + j] = (r[i + j] + x[i] * y[j]) % p;
    int mod[GF_MAX_DEGREE + 1];
    memcpy(mod, f->poly, sizeof mod);
    divides(r, 2 * m - 2, mod, m, p); /* r keeps the remainder below degree m */
    int e = 0;
    for (int i = m - 1; i >= 0; i--)
        e = e * p + r[i];
    return e;
}

int gf_init(struct gf *f, int q)
{
    memset(f, 0, sizeof *f);
    if (q < 2 || q > GF_MAX)
        return -1;
    int p = 2;
    while (q % p)
        p++;
    int m = 0, rest = q;
    for (; rest % p == 0; rest /= p)
        m++;
    if (rest != 1)
        return -1; /* two prime factors */
    f->p = p;
    f->m = m;
    f->q = q;
    /* the modulus: x^m + the lower coefficients of the first irreducible */
    for (int e = 0; e < q; e++) {
        digits(e, p, m, f->poly);
        f->poly[m] = 1;
        if (irreducible(f->poly, m, p))
            break;
    }
    for (int a = 0; a < q; a++) {
        int x[GF_MAX_DEGREE], y[GF_MAX_DEGREE];
        digits(a, p, m, x);
        for (int b = 0; b < q; b++) {
            digits(b, p, m, y);
            int s = 0;
            for (int i = m - 1; i >= 0; i--)
                s = s * p + (x[i] + y[i]) % p;
            f->add[a][b] = (uint8_t)s;
            f->mul[a][b] = (uint8_t)multiply(f, a, b);
            if (s == 0)
                f->neg[a] = (uint8_t)b;
        }
    }
    for (int g = 1; g < q; g++) {
        int x = 1, order = 0;
        do {
            x = f->mul[x][g];
            order++;
        } while (x != 1 && order < q);
        if (order == q - 1) {
            f->xi = g;
            break;
        }
    }
    /* the powers of xi are the q - 1 non-zero elements */
    bool seen[GF_MAX] = {false};
    for (int e = 0, x = 1; e < q - 1; e++, x = f->mul[x][f->xi]) {
        if (!f->xi || x == 0 || seen[x])
            return -2;
        seen[x] = true;
    }
    return 0;
}
