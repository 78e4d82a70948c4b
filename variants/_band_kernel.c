/* variants._band_kernel: the arrangement searches of variants/arrangement_logic.py
 * (`_Filler.supports`, `fill`, `prune`, `place`, `holds`) in C, for fillings whose rules of
 * three cells or more are all linear sums (`Linear`: arrows, double arrows), each of which
 * prunes the search by its own exact supports (`Linear.supports`).
 *
 * supports(spec, doms, seed, budget, total, tick, guide, dead) -> (status, support, found, nodes)
 *
 * The same search, node for node: the same cell or house digit to branch on, the same digit
 * and cell order, the same node count (a node per call of `fill`, PRUNE_COST per support
 * search of a rule on domains not met before in this call), so the same budgets run out at
 * the same candidates and the same supports and fillings come back. A rule's supports are
 * the Python code's (exact while the product of its domain sizes is at most ENUM_LIMIT, the
 * sum's bounds otherwise; both defined by the sums alone). `tick` (the analysis' `tick`, or
 * None) is called with the nodes so far every TICK_BATCH nodes and at the end, where the
 * Python code calls it once a node: the clocks are read as often, and a True answer stops
 * the search (status 2, the Python code's `_Expired`). Status 1: the budget ran out with no
 * `total` (the Python code's TimeoutError).
 *
 * Anything outside what this code takes (more than MAXC cells and slots, a digit above 62,
 * more than MAXR rules or MAXP cells a rule, sums wider than RANGE_MAX) is declined by the
 * Python side before the call (`_Filler._kernel_spec`); an argument of the wrong shape
 * raises ValueError. The Python code stays the reference and the fallback (csp/kernel.py);
 * tests/variants/test_band_kernel.py compares them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 64          /* cells plus the slots of the digits a house lacks */
#define MAXD 63          /* digits 0..62 */
#define MAXR 64
#define MAXP 32
#define RANGE_MAX 4096
#define ENUM_LIMIT 4096
#define PRUNE_COST 4
#define TICK_BATCH 64

typedef struct {
    int npos;
    int pos[MAXP];              /* open index, or -1 */
    int fixval[MAXP];           /* the placed digit where pos is -1 */
    long long coef[MAXP];
    long long total;
    uint64_t opened;
} Rule;

typedef struct {
    int r;
    int none;
    uint64_t hash;
    size_t off;                 /* key (npos masks) then the supports (npos masks) */
} Entry;

typedef struct {
    int k, ns;
    /* fb: per cell and digit, the (index, keep) pairs */
    int fb_off[MAXC][MAXD + 1], fb_len[MAXC][MAXD + 1];
    int *fb_j;
    uint64_t *fb_keep;
    int nplain, nreq;
    uint64_t plain[MAXC];
    uint64_t req_g[MAXC];
    int req_slot[MAXC];
    int nslots[MAXC];
    int slots[MAXC][MAXC];
    int nrules;
    Rule rules[MAXR];
    int nrof[MAXC];
    int rof[MAXC][MAXR];
    int npr;
    int pr[MAXR];
    long long nodes, budget;
    int chosen[MAXC];
    PyObject *tick;
    long long tickacc;
    PyObject *dead;             /* the failed states' node counts (a dict), or NULL */
    int has_guide;
    int guide[MAXC];
    int error;
    /* the support memo of the rules */
    Entry *ent;
    size_t nent, cap_ent;
    int *table;
    size_t tcap;
    uint64_t *pool;
    size_t npool, cap_pool;
} Ctx;

/* ------------------------------------------------------------------ a rule's supports */

/* Linear.supports of rule R on the masks `dom` into `out`; 1, or 0 for None */
static int lin_supports(const Rule *R, const uint64_t *dom, uint64_t *out) {
    int k = R->npos;
    int nd[MAXP], dig[MAXP][64];
    long long prod = 1;
    int enumerable = 1;
    for (int i = 0; i < k; i++) {
        int n = 0;
        uint64_t x = dom[i];
        while (x) {
            dig[i][n++] = __builtin_ctzll(x);
            x &= x - 1;
        }
        nd[i] = n;
        if (enumerable) {
            prod *= n;
            if (prod > ENUM_LIMIT)
                enumerable = 0;
        }
    }
    long long lo[MAXP], hi[MAXP];
    if (!enumerable) {
        /* _bound_supports */
        long long slo = 0, shi = 0;
        for (int i = 0; i < k; i++)
            if (!nd[i])
                return 0;
        for (int i = 0; i < k; i++) {
            long long x0 = R->coef[i] * dig[i][0], x1 = R->coef[i] * dig[i][nd[i] - 1];
            lo[i] = x0 < x1 ? x0 : x1;
            hi[i] = x0 < x1 ? x1 : x0;
            slo += lo[i];
            shi += hi[i];
        }
        if (slo > R->total || shi < R->total)
            return 0;
        for (int i = 0; i < k; i++) {
            long long lo_t = R->total - (shi - hi[i]), hi_t = R->total - (slo - lo[i]);
            uint64_t keep = 0;
            for (int n = 0; n < nd[i]; n++) {
                long long v = R->coef[i] * dig[i][n];
                if (lo_t <= v && v <= hi_t)
                    keep |= (uint64_t)1 << dig[i][n];
            }
            if (!keep)
                return 0;
            out[i] = keep;
        }
        return 1;
    }
    /* exact: linear_supports with no cells that must differ (_free_linear_supports) */
    long long plo = 0, width = 1;
    for (int i = 0; i < k; i++) {
        if (!nd[i])
            return 0;               /* no support at all: None */
        long long x0 = R->coef[i] * dig[i][0], x1 = R->coef[i] * dig[i][nd[i] - 1];
        lo[i] = x0 < x1 ? x0 : x1;
        hi[i] = x0 < x1 ? x1 : x0;
        plo += lo[i];
        width += hi[i] - lo[i];
    }
    if (width > RANGE_MAX)
        return -1;                  /* (the Python side declines such rules) */
    long long goal = R->total - plo;
    if (goal < 0 || goal >= width)
        return 0;
    static uint8_t fwd[MAXP + 1][RANGE_MAX], bwd[2][RANGE_MAX];
    memset(fwd[0], 0, (size_t)width);
    fwd[0][0] = 1;
    for (int i = 0; i < k; i++) {
        uint8_t *f = fwd[i], *g = fwd[i + 1];
        memset(g, 0, (size_t)width);
        for (int n = 0; n < nd[i]; n++) {
            long long sh = R->coef[i] * dig[i][n] - lo[i];
            for (long long s = 0; s + sh < width; s++)
                if (f[s])
                    g[s + sh] = 1;
        }
    }
    if (!fwd[k][goal])
        return 0;
    uint8_t *b = bwd[0], *nb = bwd[1];
    memset(b, 0, (size_t)width);
    b[goal] = 1;
    for (int i = k - 1; i >= 0; i--) {
        uint8_t *f = fwd[i];
        memset(nb, 0, (size_t)width);
        out[i] = 0;
        for (int n = 0; n < nd[i]; n++) {
            long long sh = R->coef[i] * dig[i][n] - lo[i];
            int hit = 0;
            for (long long s = 0; s + sh < width; s++) {
                if (f[s] && b[s + sh]) {
                    hit = 1;
                    nb[s] = 1;
                }
            }
            if (hit)
                out[i] |= (uint64_t)1 << dig[i][n];
        }
        uint8_t *tmp = b;
        b = nb;
        nb = tmp;
    }
    for (int i = 0; i < k; i++)
        if (!out[i])
            return 0;
    return 1;
}

/* ------------------------------------------------------------------ the memo */

static uint64_t hash_key(int r, const uint64_t *key, int n) {
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)r;
    for (int i = 0; i < n; i++) {
        h ^= key[i];
        h *= 1099511628211ULL;
        h ^= h >> 29;
    }
    return h;
}

static int memo_grow(Ctx *C) {
    size_t ncap = C->tcap ? C->tcap * 2 : 1024;
    int *nt = malloc(ncap * sizeof(int));
    if (!nt)
        return 0;
    for (size_t i = 0; i < ncap; i++)
        nt[i] = -1;
    for (size_t e = 0; e < C->nent; e++) {
        size_t h = C->ent[e].hash & (ncap - 1);
        while (nt[h] >= 0)
            h = (h + 1) & (ncap - 1);
        nt[h] = (int)e;
    }
    free(C->table);
    C->table = nt;
    C->tcap = ncap;
    return 1;
}

/* the supports of pruner rule r on `key` (its masks): a pointer to them, NULL for None;
 * C->error set on a memory failure */
static const uint64_t *rule_supports(Ctx *C, int r, const uint64_t *key) {
    const Rule *R = &C->rules[r];
    int n = R->npos;
    uint64_t h = hash_key(r, key, n);
    if (C->tcap) {
        size_t i = h & (C->tcap - 1);
        while (C->table[i] >= 0) {
            Entry *e = &C->ent[C->table[i]];
            if (e->hash == h && e->r == r && !memcmp(C->pool + e->off, key, n * sizeof(uint64_t)))
                return e->none ? NULL : C->pool + e->off + n;
            i = (i + 1) & (C->tcap - 1);
        }
    }
    /* not met before: a support search, counted */
    C->nodes += PRUNE_COST;
    if ((C->nent + 1) * 2 > C->tcap && !memo_grow(C)) {
        C->error = 1;
        return NULL;
    }
    if (C->nent == C->cap_ent) {
        size_t nc = C->cap_ent ? C->cap_ent * 2 : 256;
        Entry *ne = realloc(C->ent, nc * sizeof(Entry));
        if (!ne) {
            C->error = 1;
            return NULL;
        }
        C->ent = ne;
        C->cap_ent = nc;
    }
    if (C->npool + 2 * (size_t)n > C->cap_pool) {
        size_t nc = C->cap_pool ? C->cap_pool * 2 : 4096;
        while (nc < C->npool + 2 * (size_t)n)
            nc *= 2;
        uint64_t *np = realloc(C->pool, nc * sizeof(uint64_t));
        if (!np) {
            C->error = 1;
            return NULL;
        }
        C->pool = np;
        C->cap_pool = nc;
    }
    Entry *e = &C->ent[C->nent];
    e->r = r;
    e->hash = h;
    e->off = C->npool;
    memcpy(C->pool + e->off, key, n * sizeof(uint64_t));
    int got = lin_supports(R, key, C->pool + e->off + n);
    if (got < 0) {
        C->error = 2;
        return NULL;
    }
    e->none = !got;
    C->npool += 2 * (size_t)n;
    size_t i = h & (C->tcap - 1);
    while (C->table[i] >= 0)
        i = (i + 1) & (C->tcap - 1);
    C->table[i] = (int)C->nent++;
    return e->none ? NULL : C->pool + e->off + n;
}

/* ------------------------------------------------------------------ the search */

/* _Filler.prune: narrow dom in place; 0 when some rule has no assignment left */
static int prune(Ctx *C, uint64_t *dom) {
    uint64_t key[MAXP];
    for (int q = 0; q < C->npr; q++) {
        const Rule *R = &C->rules[C->pr[q]];
        for (int i = 0; i < R->npos; i++)
            key[i] = R->pos[i] >= 0 ? dom[R->pos[i]] : (uint64_t)1 << R->fixval[i];
        const uint64_t *sup = rule_supports(C, C->pr[q], key);
        if (!sup)
            return 0;
        for (int i = 0; i < R->npos; i++) {
            int p = R->pos[i];
            uint64_t m = sup[i];
            if (p >= 0 && dom[p] & ~m) {
                m &= dom[p];
                if (!m)
                    return 0;
                dom[p] = m;
            }
        }
    }
    return 1;
}

/* _Filler.holds */
static int holds(Ctx *C, int i, uint64_t left) {
    for (int q = 0; q < C->nrof[i]; q++) {
        const Rule *R = &C->rules[C->rof[i][q]];
        if (R->opened & left)
            continue;
        long long s = 0;
        for (int j = 0; j < R->npos; j++)
            s += R->coef[j] * (R->pos[j] >= 0 ? C->chosen[R->pos[j]] : R->fixval[j]);
        if (s != R->total)
            return 0;
    }
    return 1;
}

/* _Filler.place */
static void place(Ctx *C, const uint64_t *dom, uint64_t *nd, int i, int d) {
    memcpy(nd, dom, C->ns * sizeof(uint64_t));
    int off = C->fb_off[i][d], len = C->fb_len[i][d];
    for (int q = 0; q < len; q++)
        nd[C->fb_j[off + q]] &= C->fb_keep[off + q];
    uint64_t bit = (uint64_t)1 << d;
    nd[i] = C->dead ? 0 : bit;
    for (int q = 0; q < C->nslots[i]; q++)
        nd[C->slots[i][q]] &= ~bit;
}

static int do_tick(Ctx *C) {
    if (!C->tick || !C->tickacc)
        return 0;
    PyObject *r = PyObject_CallFunction(C->tick, "L", C->tickacc);
    C->tickacc = 0;
    if (!r) {
        C->error = 3;
        return -3;
    }
    int t = PyObject_IsTrue(r);
    Py_DECREF(r);
    if (t < 0) {
        C->error = 3;
        return -3;
    }
    return t ? -2 : 0;
}

static int descend(Ctx *C, uint64_t *dom, uint64_t left);

/* _Filler.fill: 1 a filling (in chosen), 0 none, -1 the budget ran out, -2 expired,
 * -3 an error */
static int fill(Ctx *C, uint64_t *dom, uint64_t left) {
    C->nodes++;
    if (C->nodes > C->budget)
        return -1;
    if (C->tick && ++C->tickacc >= TICK_BATCH) {
        int t = do_tick(C);
        if (t)
            return t;
    }
    if (!left)
        return 1;
    if (C->npr && !prune(C, dom))
        return C->error ? -3 : 0;
    int best = -1, bc = 99;
    uint64_t x = left;
    while (x) {
        int i = __builtin_ctzll(x);
        x &= x - 1;
        int cnt = __builtin_popcountll(dom[i]);
        if (cnt < bc) {
            if (!cnt)
                return 0;
            best = i;
            bc = cnt;
        }
    }
    for (int q = 0; q < C->nplain; q++) {
        uint64_t g = C->plain[q] & left;
        if (g & (g - 1)) {
            uint64_t need = 0, y = g;
            while (y) {
                need |= dom[__builtin_ctzll(y)];
                y &= y - 1;
            }
            if (__builtin_popcountll(need) < __builtin_popcountll(g))
                return 0;
        }
    }
    uint64_t spots = 0;
    int digit = 0, single = 0;
    for (int q = 0; q < C->nreq; q++) {
        uint64_t g = C->req_g[q] & left;
        uint64_t once = 0, twice = 0, thrice = 0, y = g;
        while (y) {
            uint64_t m = dom[__builtin_ctzll(y)];
            y &= y - 1;
            thrice |= twice & m;
            twice |= once & m;
            once |= m;
        }
        if (__builtin_popcountll(once) < __builtin_popcountll(g))
            return 0;
        if (single)
            continue;
        uint64_t need = dom[C->req_slot[q]];
        if (need & ~once)
            return 0;
        uint64_t pick = need & ~twice;
        if (!pick)
            pick = bc > 2 ? need & ~thrice : 0;
        if (pick) {
            digit = __builtin_ctzll(pick);
            uint64_t bit = (uint64_t)1 << digit;
            spots = 0;
            y = g;
            while (y) {
                int i = __builtin_ctzll(y);
                y &= y - 1;
                if (dom[i] & bit)
                    spots |= (uint64_t)1 << i;
            }
            if (!(pick & twice))
                single = 1;
        }
    }
    uint64_t nd[MAXC];
    int guided = C->has_guide && !C->npr;
    if (spots) {
        /* the cells in order; with the guide, first those where it has this digit, then
         * every cell but the first of those (the Python code's order, repeats and all) */
        int order[2 * MAXC], no = 0, first = -1;
        uint64_t y = spots;
        if (guided) {
            while (y) {
                int i = __builtin_ctzll(y);
                y &= y - 1;
                if (C->guide[i] == digit) {
                    if (first < 0)
                        first = i;
                    order[no++] = i;
                }
            }
        }
        y = spots;
        while (y) {
            int i = __builtin_ctzll(y);
            y &= y - 1;
            if (i != first)
                order[no++] = i;
        }
        if (first < 0 || !guided) {
            no = 0;
            y = spots;
            while (y) {
                order[no++] = __builtin_ctzll(y);
                y &= y - 1;
            }
        }
        for (int q = 0; q < no; q++) {
            int i = order[q];
            C->chosen[i] = digit;
            uint64_t rest = left & ~((uint64_t)1 << i);
            if (!holds(C, i, rest))
                continue;
            place(C, dom, nd, i, digit);
            int r = descend(C, nd, rest);
            if (r)
                return r;
        }
        return 0;
    }
    uint64_t rest = left & ~((uint64_t)1 << best);
    int order[64], no = 0;
    uint64_t y = dom[best];
    int gd = guided ? C->guide[best] : -1;
    if (gd >= 0 && gd < 64 && (dom[best] >> gd & 1) && __builtin_ctzll(dom[best]) != gd) {
        order[no++] = gd;
        y &= ~((uint64_t)1 << gd);
    }
    while (y) {
        order[no++] = __builtin_ctzll(y);
        y &= y - 1;
    }
    for (int q = 0; q < no; q++) {
        int d = order[q];
        C->chosen[best] = d;
        if (!holds(C, best, rest))
            continue;
        place(C, dom, nd, best, d);
        int r = descend(C, nd, rest);
        if (r)
            return r;
    }
    return 0;
}

/* _Filler.descend: fill, or with the dead states, a failed state's node count replayed */
static int descend(Ctx *C, uint64_t *dom, uint64_t left) {
    if (!C->dead)
        return fill(C, dom, left);
    PyObject *key = PyTuple_New(1 + C->ns);
    if (!key)
        goto error;
    PyObject *v = PyLong_FromUnsignedLongLong(left);
    if (!v) {
        Py_DECREF(key);
        goto error;
    }
    PyTuple_SET_ITEM(key, 0, v);
    for (int j = 0; j < C->ns; j++) {
        v = PyLong_FromUnsignedLongLong(dom[j]);
        if (!v) {
            Py_DECREF(key);
            goto error;
        }
        PyTuple_SET_ITEM(key, 1 + j, v);
    }
    PyObject *count = PyDict_GetItemWithError(C->dead, key);
    if (!count) {
        if (PyErr_Occurred()) {
            Py_DECREF(key);
            goto error;
        }
        long long before = C->nodes;
        int r = fill(C, dom, left);
        if (r == 0) {
            PyObject *n = PyLong_FromLongLong(C->nodes - before);
            if (!n || PyDict_SetItem(C->dead, key, n) < 0) {
                Py_XDECREF(n);
                Py_DECREF(key);
                goto error;
            }
            Py_DECREF(n);
        }
        Py_DECREF(key);
        return r;
    }
    Py_DECREF(key);
    long long cnt = PyLong_AsLongLong(count);
    if (cnt == -1 && PyErr_Occurred())
        goto error;
    if (C->nodes + cnt > C->budget) {
        C->nodes = C->budget + 1;           /* where the search itself would stop */
        return -1;
    }
    C->nodes += cnt;
    if (C->tick) {
        C->tickacc += cnt;
        if (C->tickacc >= TICK_BATCH) {
            int t = do_tick(C);
            if (t)
                return t;
        }
    }
    return 0;
error:
    C->error = 3;
    return -3;
}

/* ------------------------------------------------------------------ reading the spec */

static int seq_u64(PyObject *seq, uint64_t *out, Py_ssize_t max, Py_ssize_t *n) {
    PyObject *f = PySequence_Fast(seq, "a sequence of ints");
    if (!f)
        return 0;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(f);
    if (len > max) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "too many items");
        return 0;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(f, i));
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return 0;
        }
        if (v >> MAXD) {
            Py_DECREF(f);
            PyErr_SetString(PyExc_ValueError, "a mask beyond the kernel's digits");
            return 0;
        }
        out[i] = v;
    }
    *n = len;
    Py_DECREF(f);
    return 1;
}

static int seq_int(PyObject *seq, long long *out, Py_ssize_t max, Py_ssize_t *n,
                   long long lo, long long hi) {
    PyObject *f = PySequence_Fast(seq, "a sequence of ints");
    if (!f)
        return 0;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(f);
    if (len > max) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "too many items");
        return 0;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(f, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return 0;
        }
        if (v < lo || v > hi) {
            Py_DECREF(f);
            PyErr_SetString(PyExc_ValueError, "an int out of the kernel's range");
            return 0;
        }
        out[i] = v;
    }
    *n = len;
    Py_DECREF(f);
    return 1;
}

/* k rows of ints in [0, hi], one per cell, into rows (row i at rows + i * width, at most
 * width each) and their lengths into counts; what names the argument in the error */
static int cell_rows(PyObject *seq, const char *what, int k, int *rows, int width, int *counts,
                     long long hi) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f)
        return 0;
    if (PySequence_Fast_GET_SIZE(f) != k) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, what);
        return 0;
    }
    for (int i = 0; i < k; i++) {
        long long tmp[MAXC > MAXR ? MAXC : MAXR];
        Py_ssize_t n;
        if (!seq_int(PySequence_Fast_GET_ITEM(f, i), tmp, width, &n, 0, hi)) {
            Py_DECREF(f);
            return 0;
        }
        counts[i] = (int)n;
        for (Py_ssize_t q = 0; q < n; q++)
            rows[i * width + q] = (int)tmp[q];
    }
    Py_DECREF(f);
    return 1;
}

static Ctx CTX;

static void ctx_free(Ctx *C) {
    free(C->fb_j);
    free(C->fb_keep);
    free(C->ent);
    free(C->table);
    free(C->pool);
    C->fb_j = NULL;
    C->fb_keep = NULL;
    C->ent = NULL;
    C->table = NULL;
    C->pool = NULL;
    C->nent = C->cap_ent = C->tcap = C->npool = C->cap_pool = 0;
}

/* spec: (k, fb, plain, req, slots, rules, rules_of, pruners)
 *   fb: per cell, a dict digit -> ((index, keep), ...)
 *   plain: group masks; req: ((group mask, slot), ...); slots: per cell, (slot, ...)
 *   rules: ((pos, fixed digits, opened, coeffs, total), ...); rules_of: per cell, (rule, ...)
 *   pruners: (rule, ...) */
static int read_spec(Ctx *C, PyObject *spec, Py_ssize_t ns) {
    PyObject *fb, *plain, *req, *slots, *rules, *rof, *pr;
    int k;
    if (!PyArg_ParseTuple(spec, "iOOOOOOO", &k, &fb, &plain, &req, &slots, &rules, &rof, &pr))
        return 0;
    if (k < 1 || k > MAXC || ns < k || ns > MAXC) {
        PyErr_SetString(PyExc_ValueError, "cells out of the kernel's range");
        return 0;
    }
    C->k = k;
    C->ns = (int)ns;
    /* fb */
    PyObject *fbf = PySequence_Fast(fb, "fb: a sequence");
    if (!fbf)
        return 0;
    if (PySequence_Fast_GET_SIZE(fbf) != k) {
        Py_DECREF(fbf);
        PyErr_SetString(PyExc_ValueError, "fb: one dict a cell");
        return 0;
    }
    size_t total = 0, cap = 1024;
    C->fb_j = malloc(cap * sizeof(int));
    C->fb_keep = malloc(cap * sizeof(uint64_t));
    if (!C->fb_j || !C->fb_keep) {
        Py_DECREF(fbf);
        PyErr_NoMemory();
        return 0;
    }
    memset(C->fb_len, 0, sizeof(C->fb_len));
    memset(C->fb_off, 0, sizeof(C->fb_off));
    for (int i = 0; i < k; i++) {
        PyObject *dct = PySequence_Fast_GET_ITEM(fbf, i);
        if (!PyDict_Check(dct)) {
            Py_DECREF(fbf);
            PyErr_SetString(PyExc_ValueError, "fb: one dict a cell");
            return 0;
        }
        PyObject *key, *val;
        Py_ssize_t pos = 0;
        while (PyDict_Next(dct, &pos, &key, &val)) {
            long d = PyLong_AsLong(key);
            if (d == -1 && PyErr_Occurred()) {
                Py_DECREF(fbf);
                return 0;
            }
            if (d < 0 || d >= MAXD) {
                Py_DECREF(fbf);
                PyErr_SetString(PyExc_ValueError, "fb: a digit out of range");
                return 0;
            }
            PyObject *vf = PySequence_Fast(val, "fb: pairs");
            if (!vf) {
                Py_DECREF(fbf);
                return 0;
            }
            Py_ssize_t n = PySequence_Fast_GET_SIZE(vf);
            C->fb_off[i][d] = (int)total;
            C->fb_len[i][d] = (int)n;
            for (Py_ssize_t q = 0; q < n; q++) {
                PyObject *pair = PySequence_Fast_GET_ITEM(vf, q);
                if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
                    Py_DECREF(vf);
                    Py_DECREF(fbf);
                    PyErr_SetString(PyExc_ValueError, "fb: (index, keep) pairs");
                    return 0;
                }
                long j = PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
                unsigned long long keep =
                    PyLong_AsUnsignedLongLongMask(PyTuple_GET_ITEM(pair, 1));
                if (PyErr_Occurred() || j < 0 || j >= k) {
                    Py_DECREF(vf);
                    Py_DECREF(fbf);
                    if (!PyErr_Occurred())
                        PyErr_SetString(PyExc_ValueError, "fb: an index out of range");
                    return 0;
                }
                if (total == cap) {
                    cap *= 2;
                    int *nj = realloc(C->fb_j, cap * sizeof(int));
                    if (nj)
                        C->fb_j = nj;
                    uint64_t *nk = realloc(C->fb_keep, cap * sizeof(uint64_t));
                    if (nk)
                        C->fb_keep = nk;
                    if (!nj || !nk) {
                        Py_DECREF(vf);
                        Py_DECREF(fbf);
                        PyErr_NoMemory();
                        return 0;
                    }
                }
                C->fb_j[total] = (int)j;
                C->fb_keep[total] = keep;
                total++;
            }
            Py_DECREF(vf);
        }
    }
    Py_DECREF(fbf);
    /* groups */
    Py_ssize_t n;
    if (!seq_u64(plain, C->plain, MAXC, &n))
        return 0;
    C->nplain = (int)n;
    PyObject *rf = PySequence_Fast(req, "req: a sequence");
    if (!rf)
        return 0;
    C->nreq = (int)PySequence_Fast_GET_SIZE(rf);
    if (C->nreq > MAXC) {
        Py_DECREF(rf);
        PyErr_SetString(PyExc_ValueError, "req: too many groups");
        return 0;
    }
    for (int q = 0; q < C->nreq; q++) {
        unsigned long long g;
        int slot;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(rf, q), "Ki", &g, &slot)) {
            Py_DECREF(rf);
            return 0;
        }
        if (slot < 0 || slot >= ns) {
            Py_DECREF(rf);
            PyErr_SetString(PyExc_ValueError, "req: a slot out of range");
            return 0;
        }
        C->req_g[q] = g;
        C->req_slot[q] = slot;
    }
    Py_DECREF(rf);
    if (!cell_rows(slots, "slots: one tuple a cell", k, &C->slots[0][0], MAXC, C->nslots,
                   ns - 1))
        return 0;
    /* rules */
    PyObject *ruf = PySequence_Fast(rules, "rules: a sequence");
    if (!ruf)
        return 0;
    C->nrules = (int)PySequence_Fast_GET_SIZE(ruf);
    if (C->nrules > MAXR) {
        Py_DECREF(ruf);
        PyErr_SetString(PyExc_ValueError, "rules: too many");
        return 0;
    }
    for (int r = 0; r < C->nrules; r++) {
        PyObject *pos, *fixed, *coefs;
        unsigned long long opened;
        long long tot;
        Rule *R = &C->rules[r];
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(ruf, r), "OOKOL", &pos, &fixed,
                              &opened, &coefs, &tot)) {
            Py_DECREF(ruf);
            return 0;
        }
        long long tmp[MAXP];
        Py_ssize_t n1, n2, n3;
        if (!seq_int(pos, tmp, MAXP, &n1, -1, k - 1)) {
            Py_DECREF(ruf);
            return 0;
        }
        for (Py_ssize_t q = 0; q < n1; q++)
            R->pos[q] = (int)tmp[q];
        if (!seq_int(fixed, tmp, MAXP, &n2, 0, MAXD - 1)) {
            Py_DECREF(ruf);
            return 0;
        }
        for (Py_ssize_t q = 0; q < n2; q++)
            R->fixval[q] = (int)tmp[q];
        if (!seq_int(coefs, R->coef, MAXP, &n3, -(1LL << 24), 1LL << 24)) {
            Py_DECREF(ruf);
            return 0;
        }
        if (n1 != n2 || n1 != n3) {
            Py_DECREF(ruf);
            PyErr_SetString(PyExc_ValueError, "rules: one position, value, coefficient a cell");
            return 0;
        }
        R->npos = (int)n1;
        R->opened = opened;
        R->total = tot;
    }
    Py_DECREF(ruf);
    if (!cell_rows(rof, "rules_of: one tuple a cell", k, &C->rof[0][0], MAXR, C->nrof,
                   C->nrules - 1))
        return 0;
    long long tmp[MAXR];
    if (!seq_int(pr, tmp, MAXR, &n, 0, C->nrules - 1))
        return 0;
    C->npr = (int)n;
    for (Py_ssize_t q = 0; q < n; q++)
        C->pr[q] = (int)tmp[q];
    return 1;
}

static PyObject *py_supports(PyObject *self, PyObject *args) {
    PyObject *spec, *doms_o, *seed_o, *tick, *guide_o, *dead;
    long long budget, total;
    if (!PyArg_ParseTuple(args, "OOOLLOOO", &spec, &doms_o, &seed_o, &budget, &total, &tick,
                          &guide_o, &dead))
        return NULL;
    if (dead != Py_None && !PyDict_Check(dead)) {
        PyErr_SetString(PyExc_ValueError, "dead: a dict or None");
        return NULL;
    }
    Ctx *C = &CTX;
    ctx_free(C);
    uint64_t start[MAXC], support[MAXC];
    Py_ssize_t ns, nk;
    PyObject *result = NULL, *found = NULL;
    if (!seq_u64(doms_o, start, MAXC, &ns))
        return NULL;
    if (!read_spec(C, spec, ns))
        goto out;
    int k = C->k;
    if (!seq_u64(seed_o, support, MAXC, &nk))
        goto out;
    if (nk != k) {
        PyErr_SetString(PyExc_ValueError, "seed: one mask a cell");
        goto out;
    }
    C->tick = tick == Py_None ? NULL : tick;
    C->dead = dead == Py_None ? NULL : dead;
    C->has_guide = 0;
    if (guide_o != Py_None) {
        long long g[MAXC];
        Py_ssize_t ng;
        if (!seq_int(guide_o, g, MAXC, &ng, -1, MAXD - 1))
            goto out;
        if (ng != k) {
            PyErr_SetString(PyExc_ValueError, "guide: one digit a cell");
            goto out;
        }
        for (int j = 0; j < k; j++)
            C->guide[j] = (int)g[j];
        C->has_guide = 1;
    }
    C->tickacc = 0;
    C->budget = budget;
    C->nodes = 0;
    C->error = 0;
    memset(C->chosen, 0, sizeof(C->chosen));
    found = PyList_New(0);
    if (!found)
        goto out;
    uint64_t everyone = k == 64 ? ~(uint64_t)0 : (((uint64_t)1 << k) - 1);
    long long spent = 0;
    int status = 0;
    uint64_t nd[MAXC];
    for (int i = 0; i < k && !status; i++) {
        uint64_t y = start[i] & ~support[i];
        while (y) {
            int d = __builtin_ctzll(y);
            y &= y - 1;
            if (support[i] >> d & 1)
                continue;
            if (total >= 0 && spent > total) {
                for (int j = i; j < k; j++)
                    support[j] |= start[j];
                goto done;
            }
            C->chosen[i] = d;
            uint64_t rest = everyone & ~((uint64_t)1 << i);
            if (!holds(C, i, rest))
                continue;
            place(C, start, nd, i, d);
            int r = descend(C, nd, rest);
            if (r == 1) {
                PyObject *f = PyList_New(k);
                if (!f)
                    goto out;
                for (int j = 0; j < k; j++) {
                    support[j] |= (uint64_t)1 << C->chosen[j];
                    PyObject *v = PyLong_FromLong(C->chosen[j]);
                    if (!v) {
                        Py_DECREF(f);
                        goto out;
                    }
                    PyList_SET_ITEM(f, j, v);
                }
                int a = PyList_Append(found, f);
                Py_DECREF(f);
                if (a < 0)
                    goto out;
                for (int j = 0; j < k; j++)     /* the next searches follow it first */
                    C->guide[j] = C->chosen[j];
                C->has_guide = 1;
            } else if (r == -1) {
                if (total < 0) {
                    status = 1;
                    break;
                }
                support[i] |= (uint64_t)1 << d;
            } else if (r == -2) {
                status = 2;
                break;
            } else if (r == -3) {
                if (C->error == 3)
                    goto out;           /* the tick's exception */
                PyErr_SetString(C->error == 1 ? PyExc_MemoryError : PyExc_ValueError,
                                "the band kernel's support memo");
                goto out;
            }
            if (total >= 0) {
                spent += C->nodes;
                C->nodes = 0;
            }
        }
    }
done:
    if (!status && do_tick(C)) {
        if (C->error == 3)
            goto out;
        status = 2;
    }
    {
        PyObject *sup = PyList_New(k);
        if (!sup)
            goto out;
        for (int j = 0; j < k; j++) {
            PyObject *v = PyLong_FromUnsignedLongLong(support[j]);
            if (!v) {
                Py_DECREF(sup);
                goto out;
            }
            PyList_SET_ITEM(sup, j, v);
        }
        result = Py_BuildValue("(iNOL)", status, sup, found, C->nodes);
    }
out:
    Py_XDECREF(found);
    ctx_free(C);
    return result;
}

PyDoc_STRVAR(supports_doc,
"supports(spec, doms, seed, budget, total, tick, guide, dead) -> (status, support, found, nodes)\n\n"
"variants.arrangement_logic._Filler.supports in C for fillings whose long rules are all\n"
"linear sums (see variants/_band_kernel.c). total < 0: no total. status 0 done, 1 the\n"
"budget ran out (no total: TimeoutError), 2 the tick said the deadline passed.");

static PyMethodDef methods[] = {
    {"supports", py_supports, METH_VARARGS, supports_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_band_kernel",
    "The arrangement searches of variants.arrangement_logic in C (see variants/_band_kernel.c).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__band_kernel(void) {
    return PyModule_Create(&module);
}
