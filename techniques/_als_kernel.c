/* The ALS searches of techniques/als.py in C: ALS-XZ, ALS-XY-Wing and ALS Chain.
 *
 * techniques/als.py stays the reference and the fallback (SUDOKU_CSP_PURE=1, module not
 * built, grids of more than 128 cells or more than 31 digits). A state's ALS, their RCC
 * table and the "buddies" of every ALS's digit (the cells seeing all of its cells holding
 * the digit) go into one context (prepare(), a capsule); the searches then run on it and
 * give back, in the order of the Python code, the raw results (eliminations as (cell,
 * digit) pairs, duplicates kept) that als.py turns into steps (its dedupe, notes,
 * patterns). Each search call works from a start index and returns where it stopped, so
 * the Python generator yields lazily and polls the deadline between calls.
 *
 * Plain C99 + the CPython API (unsigned __int128 cell masks, as _fish_kernel.c).
 * tests/techniques/test_als_kernel.py compares both implementations.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#define KERNEL_NAME "_als_kernel"
#include "_u128.h"

#define MAXCELLS 128
#define MAXK 32                 /* digits 1..31 */
#define MAXSTATES (1 << 24)     /* ALS x (digits + 1) */

static int to_long(PyObject *o, long lo, long hi, const char *what, long *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "_als_kernel: %s out of range", what);
        return -1;
    }
    *out = v;
    return 0;
}

typedef struct {
    int N, K, ncells;
    u128 *cells;        /* N */
    uint32_t *mask;     /* N: digit masks (bit d = digit d) */
    u128 *bud;          /* N*K: cells seeing every cell of ALS i holding d (0: none hold d) */
    u128 cw[MAXK];      /* cells holding d */
    /* RCC table: partners of ALS i, ascending, with the RCC digit mask */
    Py_ssize_t *nb_start;   /* N+1 */
    int32_t *nb_j;
    uint32_t *nb_m;
    /* the same edges as chain states j*K + y, in the order (j, y) */
    Py_ssize_t *e_start;    /* N+1 */
    int32_t *e;
    /* chain search scratch */
    uint32_t *vis;      /* N*K stamps */
    int32_t *par;       /* N*K */
    uint32_t gen;
    uint32_t *est;      /* N stamps of zend */
    uint32_t *zend;     /* N */
    uint32_t egen;
    int32_t *fa, *fb;   /* frontiers, N*K each */
} Ctx;

static void ctx_free(Ctx *c) {
    if (!c) return;
    free(c->cells); free(c->mask); free(c->bud);
    free(c->nb_start); free(c->nb_j); free(c->nb_m);
    free(c->e_start); free(c->e);
    free(c->vis); free(c->par); free(c->est); free(c->zend); free(c->fa); free(c->fb);
    free(c);
}

static void capsule_free(PyObject *cap) {
    ctx_free((Ctx *)PyCapsule_GetPointer(cap, "als_ctx"));
}

static Ctx *get_ctx(PyObject *cap) {
    return (Ctx *)PyCapsule_GetPointer(cap, "als_ctx");
}

PyDoc_STRVAR(prepare_doc,
"prepare(ncells, n, allow_overlap, cells, masks, cand, peers, cells_with) -> context or None\n\n"
"cells/masks: per ALS (index order) its cell bitset and digit mask; cand: the ncells\n"
"candidate masks of the state; peers: n+1 lists of ncells peer masks (peers[d][c], index\n"
"0 unused); cells_with: n+1 masks. Builds the RCC table (als._find_rccs: digit d of\n"
"both ALS, every d of one seen by every d of the other, overlap only with\n"
"allow_overlap and never on d) and each ALS digit's buddies. None when the grid is too\n"
"large.");

/* one RCC pair of prepare()'s table (i < j) */
typedef struct { int32_t i, j; uint32_t rc; } RccPair;

static PyObject *py_prepare(PyObject *self, PyObject *args) {
    long ncells, n;
    int allow;
    PyObject *cells, *masks, *cand, *peers, *cw;
    if (!PyArg_ParseTuple(args, "llpO!O!O!O!O!", &ncells, &n, &allow, &PyList_Type, &cells,
                          &PyList_Type, &masks, &PyList_Type, &cand, &PyList_Type, &peers,
                          &PyList_Type, &cw))
        return NULL;
    if (ncells < 1 || ncells > MAXCELLS || n < 1 || n >= MAXK)
        Py_RETURN_NONE;
    Py_ssize_t N = PyList_GET_SIZE(cells);
    int K = (int)n + 1;
    if (N >= (Py_ssize_t)(MAXSTATES / K))
        Py_RETURN_NONE;
    if (PyList_GET_SIZE(masks) != N || PyList_GET_SIZE(cand) != ncells
        || PyList_GET_SIZE(peers) != K || PyList_GET_SIZE(cw) != K) {
        PyErr_SetString(PyExc_ValueError, "_als_kernel.prepare: list lengths differ");
        return NULL;
    }
    Ctx *c = (Ctx *)calloc(1, sizeof(Ctx));
    if (!c) return PyErr_NoMemory();
    c->N = (int)N; c->K = K; c->ncells = (int)ncells;
    size_t S = (size_t)N * K + 1;
    c->cells = (u128 *)malloc(sizeof(u128) * (N + 1));
    c->mask = (uint32_t *)malloc(sizeof(uint32_t) * (N + 1));
    c->bud = (u128 *)calloc(S, sizeof(u128));
    c->nb_start = (Py_ssize_t *)calloc(N + 1, sizeof(Py_ssize_t));
    c->e_start = (Py_ssize_t *)malloc(sizeof(Py_ssize_t) * (N + 1));
    c->vis = (uint32_t *)calloc(S, sizeof(uint32_t));
    c->par = (int32_t *)malloc(sizeof(int32_t) * S);
    c->est = (uint32_t *)calloc(N + 1, sizeof(uint32_t));
    c->zend = (uint32_t *)malloc(sizeof(uint32_t) * (N + 1));
    c->fa = (int32_t *)malloc(sizeof(int32_t) * S);
    c->fb = (int32_t *)malloc(sizeof(int32_t) * S);
    u128 (*pd)[MAXCELLS] = (u128 (*)[MAXCELLS])calloc(K, sizeof(u128[MAXCELLS]));
    u128 *pos = (u128 *)calloc(S, sizeof(u128));
    uint32_t cm[MAXCELLS];
    Py_ssize_t *deg = (Py_ssize_t *)calloc(N + 1, sizeof(Py_ssize_t));
    uint32_t *rcm = NULL;
    int32_t *rcj = NULL;
    if (!c->cells || !c->mask || !c->bud || !c->nb_start || !c->e_start || !c->vis || !c->par
        || !c->est || !c->zend || !c->fa || !c->fb || !pd || !pos || !deg) {
        PyErr_NoMemory();
        goto fail;
    }
    u128 all = ncells == 128 ? ~(u128)0 : (((u128)1 << ncells) - 1);
    for (int d = 1; d < K; d++) {
        PyObject *row = PyList_GET_ITEM(peers, d);
        if (!PyList_Check(row) || PyList_GET_SIZE(row) < ncells) {
            PyErr_SetString(PyExc_ValueError, "_als_kernel.prepare: peers rows too short");
            goto fail;
        }
        for (int x = 0; x < ncells; x++)
            if (to_u128(PyList_GET_ITEM(row, x), &pd[d][x]) < 0) goto fail;
        if (to_u128(PyList_GET_ITEM(cw, d), &c->cw[d]) < 0) goto fail;
    }
    c->cw[0] = 0;
    for (int x = 0; x < ncells; x++) {
        long m;
        if (to_long(PyList_GET_ITEM(cand, x), 0, (1L << K) - 1, "candidate mask", &m) < 0)
            goto fail;
        cm[x] = (uint32_t)m & ~1u;
    }
    for (Py_ssize_t i = 0; i < N; i++) {
        long m;
        if (to_u128(PyList_GET_ITEM(cells, i), &c->cells[i]) < 0) goto fail;
        if (!c->cells[i] || (c->cells[i] & ~all)) {
            PyErr_SetString(PyExc_ValueError, "_als_kernel.prepare: ALS cells outside the grid");
            goto fail;
        }
        if (to_long(PyList_GET_ITEM(masks, i), 0, (1L << K) - 1, "digit mask", &m) < 0)
            goto fail;
        c->mask[i] = (uint32_t)m & ~1u;
        u128 p = c->cells[i];
        while (p) {
            int x = lowbit(p);
            p &= p - 1;
            uint32_t dm = cm[x];
            while (dm) {
                int d = __builtin_ctz(dm);
                dm &= dm - 1;
                pos[i * K + d] |= (u128)1 << x;
            }
        }
        for (int d = 1; d < K; d++) {
            p = pos[i * K + d];
            if (p) {
                u128 b = ~(u128)0;
                while (p) {
                    int x = lowbit(p);
                    p &= p - 1;
                    b &= pd[d][x];
                }
                c->bud[i * K + d] = b;
            }
        }
    }
    free(pd);
    pd = NULL;
    /* the RCC table: every pair once (i < j), kept in search order with the rows'
       degrees counted, then filled in that order (rows ascending) */
    {
        Py_ssize_t npr = 0, cappr = 256;
        RccPair *pr = (RccPair *)malloc(sizeof(RccPair) * cappr);
        if (!pr) { PyErr_NoMemory(); goto fail; }
        for (Py_ssize_t i = 0; i < N; i++) {
            const u128 ac = c->cells[i];
            const uint32_t mi = c->mask[i];
            for (Py_ssize_t j = i + 1; j < N; j++) {
                const u128 bc = c->cells[j];
                uint32_t common = mi & c->mask[j];
                if (!common) continue;
                const u128 ov = ac & bc;
                if (ov && (!allow || !(ac & ~bc) || !(bc & ~ac))) continue;
                uint32_t rc = 0;
                while (common) {
                    int d = __builtin_ctz(common);
                    common &= common - 1;
                    const u128 pa = pos[i * K + d], pb = pos[j * K + d];
                    if ((pa | pb) & ov) continue;
                    if (pb & ~c->bud[i * K + d]) continue;
                    rc |= 1u << d;
                }
                if (!rc) continue;
                if (npr == cappr) {
                    cappr *= 2;
                    RccPair *q = (RccPair *)realloc(pr, sizeof(RccPair) * cappr);
                    if (!q) { free(pr); PyErr_NoMemory(); goto fail; }
                    pr = q;
                }
                pr[npr].i = (int32_t)i;
                pr[npr].j = (int32_t)j;
                pr[npr].rc = rc;
                npr++;
                deg[i]++;
                deg[j]++;
            }
        }
        Py_ssize_t at = 0;
        for (Py_ssize_t i = 0; i < N; i++) {
            c->nb_start[i] = at;
            at += deg[i];
            deg[i] = 0;
        }
        c->nb_start[N] = at;
        rcj = (int32_t *)malloc(sizeof(int32_t) * (at + 1));
        rcm = (uint32_t *)malloc(sizeof(uint32_t) * (at + 1));
        if (!rcj || !rcm) { free(pr); PyErr_NoMemory(); goto fail; }
        for (Py_ssize_t q = 0; q < npr; q++) {
            const int32_t i = pr[q].i, j = pr[q].j;
            const uint32_t rc = pr[q].rc;
            rcj[c->nb_start[i] + deg[i]] = j;
            rcm[c->nb_start[i] + deg[i]++] = rc;
            rcj[c->nb_start[j] + deg[j]] = i;
            rcm[c->nb_start[j] + deg[j]++] = rc;
        }
        free(pr);
    }
    /* rows: partners with a lower index first (added while they were i), then higher
       ones: both ascending, and every lower partner is below every higher one */
    free(pos);
    pos = NULL;
    free(deg);
    deg = NULL;
    c->nb_j = rcj;
    c->nb_m = rcm;
    rcj = NULL;
    rcm = NULL;
    Py_ssize_t nstates = 0;
    for (Py_ssize_t k = 0; k < c->nb_start[N]; k++) nstates += __builtin_popcount(c->nb_m[k]);
    c->e = (int32_t *)malloc(sizeof(int32_t) * (nstates + 1));
    if (!c->e) { PyErr_NoMemory(); goto fail; }
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i < N; i++) {
        c->e_start[i] = at;
        for (Py_ssize_t k = c->nb_start[i]; k < c->nb_start[i + 1]; k++) {
            uint32_t m = c->nb_m[k];
            while (m) {
                int y = __builtin_ctz(m);
                m &= m - 1;
                c->e[at++] = (int32_t)(c->nb_j[k] * K + y);
            }
        }
    }
    c->e_start[N] = at;
    c->gen = 0;
    c->egen = 0;
    return PyCapsule_New(c, "als_ctx", capsule_free);
fail:
    free(pd);
    free(pos);
    free(deg);
    free(rcj);
    free(rcm);
    ctx_free(c);
    return NULL;
}

PyDoc_STRVAR(rccs_doc,
"rccs(ctx) -> list of N lists of (partner, RCC digit mask), partners ascending\n\n"
"The RCC table the context holds (what als.find_rccs gives, as sorted rows).");

static PyObject *py_rccs(PyObject *self, PyObject *args) {
    PyObject *cap;
    if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
    Ctx *c = get_ctx(cap);
    if (!c) return NULL;
    PyObject *out = PyList_New(c->N);
    if (!out) return NULL;
    for (int i = 0; i < c->N; i++) {
        Py_ssize_t s0 = c->nb_start[i], s1 = c->nb_start[i + 1];
        PyObject *row = PyList_New(s1 - s0);
        if (!row) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, row);
        for (Py_ssize_t k = s0; k < s1; k++) {
            PyObject *t = Py_BuildValue("(iI)", c->nb_j[k], (unsigned int)c->nb_m[k]);
            if (!t) { Py_DECREF(out); return NULL; }
            PyList_SET_ITEM(row, k - s0, t);
        }
    }
    return out;
}

/* appends ``item`` (a new reference, which it takes; NULL: an exception is already set) to
 * the list ``out``: 0, or -1 with an exception set */
static int append_new(PyObject *out, PyObject *item) {
    if (!item) return -1;
    int r = PyList_Append(out, item);
    Py_DECREF(item);
    return r;
}

/* a list of (cell, digit) pairs: the cells of t, digit z, appended to out */
static int add_elims(PyObject *out, u128 t, int z) {
    while (t) {
        int x = lowbit(t);
        t &= t - 1;
        if (append_new(out, Py_BuildValue("(ii)", x, z)) < 0) return -1;
    }
    return 0;
}

/* for each digit z of zmask: the cells outside ``excl`` holding z that see every z of ALS
 * a and of ALS b (b < 0: of a alone), appended to out as (cell, z) */
static int seen_elims(const Ctx *c, PyObject *out, int a, int b, uint32_t zmask, u128 excl) {
    const int K = c->K;
    while (zmask) {
        int z = __builtin_ctz(zmask);
        zmask &= zmask - 1;
        u128 t = c->bud[a * K + z] & c->cw[z] & ~excl;
        if (b >= 0) t &= c->bud[b * K + z];
        if (add_elims(out, t, z) < 0) return -1;
    }
    return 0;
}

PyDoc_STRVAR(chain_doc,
"chain(ctx, start, budget, min_als, max_als) -> (next, used, results)\n\n"
"ALS Chain (als.als_chain) from first ALS ``start`` on, the breadth-first walk of the\n"
"Python code with its node budget; stops after the first ALS that found something (or\n"
"after 4096 nodes). results: (first ALS, [(cell, digit), ...], path of states j*K+y).");

static PyObject *py_chain(PyObject *self, PyObject *args) {
    PyObject *cap;
    long start, budget, min_als, max_als;
    if (!PyArg_ParseTuple(args, "Ollll", &cap, &start, &budget, &min_als, &max_als))
        return NULL;
    if (max_als > 60) {
        PyErr_SetString(PyExc_ValueError, "_als_kernel.chain: max_als above 60");
        return NULL;
    }
    Ctx *c = get_ctx(cap);
    if (!c) return NULL;
    const int N = c->N, K = c->K;
    if (start < 0) start = 0;
    long budget0 = budget;
    PyObject *res = PyList_New(0);
    if (!res) return NULL;
    long i1 = start;
    for (; i1 < N; i1++) {
        if (budget <= 0) { i1 = N; break; }
        if (budget0 - budget >= 4096 || PyList_GET_SIZE(res) > 0) break;
        const u128 cells1 = c->cells[i1];
        u128 zt1[MAXK];
        uint32_t zcand = 0;
        uint32_t m1 = c->mask[i1];
        while (m1) {
            int z = __builtin_ctz(m1);
            m1 &= m1 - 1;
            u128 t = c->bud[i1 * K + z] & c->cw[z] & ~cells1;
            zt1[z] = t;
            if (t) zcand |= 1u << z;
        }
        if (!zcand || c->e_start[i1] == c->e_start[i1 + 1]) continue;
        if (++c->egen == 0) {
            memset(c->est, 0, sizeof(uint32_t) * (N + 1));
            c->egen = 1;
        }
        const uint32_t eg = c->egen;
        for (Py_ssize_t k = c->e_start[i1]; k < c->e_start[i1 + 1]; k++) {
            int32_t st0 = c->e[k];
            int x1 = st0 % K;
            if (!(zcand & ~(1u << x1))) continue;
            if (++c->gen == 0) {
                memset(c->vis, 0, sizeof(uint32_t) * ((size_t)N * K + 1));
                c->gen = 1;
            }
            const uint32_t g = c->gen;
            c->vis[st0] = g;
            c->par[st0] = -1;
            for (int y = 1; y < K; y++) {
                c->vis[i1 * K + y] = g;
                c->par[i1 * K + y] = -1;
            }
            int32_t *fr = c->fa, *nx = c->fb;
            Py_ssize_t nf = 1;
            fr[0] = st0;
            long depth = 2;
            while (nf && depth < max_als && budget > 0) {
                Py_ssize_t nn = 0;
                for (Py_ssize_t q = 0; q < nf; q++) {
                    int32_t state = fr[q];
                    budget--;
                    int cx = state % K, si = state / K;
                    for (Py_ssize_t r = c->e_start[si]; r < c->e_start[si + 1]; r++) {
                        int32_t nxt = c->e[r];
                        if (nxt % K == cx || c->vis[nxt] == g) continue;
                        c->vis[nxt] = g;
                        c->par[nxt] = state;
                        nx[nn++] = nxt;
                    }
                }
                depth++;
                int32_t *tmp = fr; fr = nx; nx = tmp;
                nf = nn;
                if (depth < min_als) continue;
                const uint32_t keep = ~(1u << x1);
                for (Py_ssize_t q = 0; q < nf; q++) {
                    int32_t s = fr[q];
                    int bi = s / K, y = s % K;
                    const u128 excl = cells1 | c->cells[bi];
                    uint32_t ze;
                    if (c->est[bi] != eg) {
                        ze = 0;
                        uint32_t zm = zcand & c->mask[bi];
                        while (zm) {
                            int z = __builtin_ctz(zm);
                            zm &= zm - 1;
                            if (zt1[z] & ~excl & c->bud[bi * K + z]) ze |= 1u << z;
                        }
                        c->est[bi] = eg;
                        c->zend[bi] = ze;
                    } else {
                        ze = c->zend[bi];
                    }
                    if (!(ze & keep & ~(1u << y))) continue;
                    uint32_t zmask = zcand & c->mask[bi] & keep & ~(1u << y);
                    PyObject *el = PyList_New(0);
                    if (!el) goto fail;
                    while (zmask) {
                        int z = __builtin_ctz(zmask);
                        zmask &= zmask - 1;
                        u128 t = zt1[z] & ~c->cells[bi];
                        if (t) {
                            t &= c->bud[bi * K + z];
                            if (add_elims(el, t & ~excl, z) < 0) { Py_DECREF(el); goto fail; }
                        }
                    }
                    if (PyList_GET_SIZE(el) == 0) { Py_DECREF(el); continue; }
                    /* the path back to the start (at most max_als states: bounded) */
                    int32_t pathv[64];
                    int np = 0;
                    int32_t p = s;
                    while (p != -1 && np < 64) {
                        pathv[np++] = p;
                        p = c->par[p];
                    }
                    PyObject *path = PyTuple_New(np);
                    if (!path) { Py_DECREF(el); goto fail; }
                    for (int q2 = 0; q2 < np; q2++) {
                        PyObject *v = PyLong_FromLong(pathv[np - 1 - q2]);
                        if (!v) { Py_DECREF(el); Py_DECREF(path); goto fail; }
                        PyTuple_SET_ITEM(path, q2, v);
                    }
                    PyObject *item = Py_BuildValue("(lNN)", i1, el, path);
                    if (!item) goto fail;
                    int r = PyList_Append(res, item);
                    Py_DECREF(item);
                    if (r < 0) goto fail;
                }
            }
        }
    }
    return Py_BuildValue("(llN)", i1 < N ? i1 : (long)N, budget0 - budget, res);
fail:
    Py_DECREF(res);
    return NULL;
}

PyDoc_STRVAR(xy_wing_doc,
"xy_wing(ctx, start, allow_overlap, rounds) -> (next, results)\n\n"
"ALS-XY-Wing (als.als_xy_wing) for pivots ``start`` on, at most ``rounds`` pivots, stopping\n"
"after a pivot that found something. results: (C, A, B, RCC A-C, RCC B-C, [(cell, digit)]).");

static PyObject *py_xy_wing(PyObject *self, PyObject *args) {
    PyObject *cap;
    long start, rounds;
    int allow;
    if (!PyArg_ParseTuple(args, "Olpl", &cap, &start, &allow, &rounds)) return NULL;
    Ctx *c = get_ctx(cap);
    if (!c) return NULL;
    const int N = c->N;
    if (start < 0) start = 0;
    PyObject *res = PyList_New(0);
    if (!res) return NULL;
    long ci = start, done = 0;
    for (; ci < N; ci++) {
        if (done >= rounds || PyList_GET_SIZE(res) > 0) break;
        done++;
        const Py_ssize_t s0 = c->nb_start[ci], s1 = c->nb_start[ci + 1];
        for (Py_ssize_t i = s0; i < s1; i++) {
            const int ai = c->nb_j[i];
            const uint32_t rca = c->nb_m[i];
            const u128 ac = c->cells[ai];
            for (Py_ssize_t j = i + 1; j < s1; j++) {
                const int bi = c->nb_j[j];
                const uint32_t rcb = c->nb_m[j];
                const u128 bc = c->cells[bi];
                if (!allow && (ac & bc)) continue;
                if (!(ac & ~bc) || !(bc & ~ac)) continue;
                if (rca == rcb && __builtin_popcount(rca) == 1) continue;
                uint32_t zmask = c->mask[ai] & c->mask[bi] & ~rca & ~rcb;
                if (!zmask) continue;
                const u128 excl = ac | bc | c->cells[ci];
                PyObject *el = PyList_New(0);
                if (!el) goto fail;
                if (seen_elims(c, el, ai, bi, zmask, excl) < 0) { Py_DECREF(el); goto fail; }
                if (PyList_GET_SIZE(el) == 0) { Py_DECREF(el); continue; }
                if (append_new(res, Py_BuildValue("(liiIIN)", ci, ai, bi, (unsigned int)rca,
                                                  (unsigned int)rcb, el)) < 0) goto fail;
            }
        }
    }
    return Py_BuildValue("(lN)", ci, res);
fail:
    Py_DECREF(res);
    return NULL;
}

PyDoc_STRVAR(xz_doc,
"xz(ctx, start, rounds) -> (next, results)\n\n"
"ALS-XZ (als.als_xz) for first ALS ``start`` on, at most ``rounds`` of them, stopping after\n"
"one that found something. results: (A, B, RCC mask, [(cell, digit)]).");

static PyObject *py_xz(PyObject *self, PyObject *args) {
    PyObject *cap;
    long start, rounds;
    if (!PyArg_ParseTuple(args, "Oll", &cap, &start, &rounds)) return NULL;
    Ctx *c = get_ctx(cap);
    if (!c) return NULL;
    const int N = c->N;
    if (start < 0) start = 0;
    PyObject *res = PyList_New(0);
    if (!res) return NULL;
    long ai = start, done = 0;
    for (; ai < N; ai++) {
        if (done >= rounds || PyList_GET_SIZE(res) > 0) break;
        done++;
        const u128 ac = c->cells[ai];
        for (Py_ssize_t k = c->nb_start[ai]; k < c->nb_start[ai + 1]; k++) {
            const int bi = c->nb_j[k];
            if (bi <= ai) continue;
            const uint32_t rc = c->nb_m[k];
            const u128 uni = ac | c->cells[bi];
            const uint32_t common = c->mask[ai] & c->mask[bi];
            PyObject *el = PyList_New(0);
            if (!el) goto fail;
            /* one RCC: the common digits but it; two (a doubly linked pair): both RCC
             * digits, and each side's other digits within that side */
            int bad = __builtin_popcount(rc) == 1
                ? seen_elims(c, el, ai, bi, common & ~rc, uni)
                : (seen_elims(c, el, ai, bi, rc, uni) < 0
                   || seen_elims(c, el, ai, -1, c->mask[ai] & ~rc, uni) < 0
                   || seen_elims(c, el, bi, -1, c->mask[bi] & ~rc, uni) < 0) ? -1 : 0;
            if (bad < 0) { Py_DECREF(el); goto fail; }
            if (PyList_GET_SIZE(el) == 0) { Py_DECREF(el); continue; }
            if (append_new(res, Py_BuildValue("(liIN)", ai, bi, (unsigned int)rc, el)) < 0)
                goto fail;
        }
    }
    return Py_BuildValue("(lN)", ai, res);
fail:
    Py_DECREF(res);
    return NULL;
}

/* ---- the ALS enumeration of one house (als._house_als) ------------------------------- */
#define HOUSE_MAX 16            /* free cells of a house handled here (else Python) */

typedef struct { u128 cb; uint32_t m; int whole; } HAls;

/* the ALS of one house (the DFS of als._house_als) appended to *v; -1 on no memory */
static int house_enum(const int *cells, const uint32_t *masks, int k, int limit, HAls **v,
                      Py_ssize_t *nv, Py_ssize_t *cap) {
    struct { int start, s; uint32_t m; u128 cb; } stack[HOUSE_MAX * HOUSE_MAX + 1];
    int top = 0;
    if (k == 0) return 0;
    if (limit < 1 || limit > k) limit = k;
    stack[top].start = 0; stack[top].s = 0; stack[top].m = 0; stack[top].cb = 0; top++;
    while (top > 0) {
        top--;
        const int start = stack[top].start, s = stack[top].s;
        const uint32_t m = stack[top].m;
        const u128 cb = stack[top].cb;
        for (int i = start; i < k; i++) {
            uint32_t m2 = m | masks[i];
            int s2 = s + 1;
            int extra = __builtin_popcount(m2) - s2;
            if (extra - (limit - s2) > 1) continue;
            u128 cb2 = cb | ((u128)1 << cells[i]);
            if (extra == 1) {
                if (*nv >= *cap) {
                    Py_ssize_t nc = *cap ? *cap * 2 : 1024;
                    HAls *nvp = (HAls *)realloc(*v, sizeof(HAls) * nc);
                    if (!nvp) return -1;
                    *v = nvp;
                    *cap = nc;
                }
                (*v)[*nv].cb = cb2; (*v)[*nv].m = m2; (*v)[*nv].whole = s2 == k && k > 1;
                (*nv)++;
            }
            if (s2 < limit && top < HOUSE_MAX * HOUSE_MAX + 1) {
                stack[top].start = i + 1; stack[top].s = s2; stack[top].m = m2;
                stack[top].cb = cb2; top++;
            }
        }
    }
    return 0;
}

PyDoc_STRVAR(house_als_doc,
"house_als(cells, masks, limit) -> list or None\n\n"
"als._house_als on one house: cells (ascending), their candidate masks, limit (the most\n"
"cells, >= 1). Every ALS as (cells bitset, digit mask, {digit: cells holding it}, all the\n"
"cells?) in the Python search order. None when the house has more than 16 cells.");

static PyObject *py_house_als(PyObject *self, PyObject *args) {
    PyObject *cells_o, *masks_o;
    long limit;
    if (!PyArg_ParseTuple(args, "O!O!l", &PyList_Type, &cells_o, &PyList_Type, &masks_o,
                          &limit))
        return NULL;
    Py_ssize_t k = PyList_GET_SIZE(cells_o);
    if (k > HOUSE_MAX) Py_RETURN_NONE;
    if (PyList_GET_SIZE(masks_o) != k) {
        PyErr_SetString(PyExc_ValueError, "_als_kernel.house_als: list lengths differ");
        return NULL;
    }
    int cells[HOUSE_MAX];
    uint32_t masks[HOUSE_MAX];
    for (Py_ssize_t i = 0; i < k; i++) {
        long v, m;
        if (to_long(PyList_GET_ITEM(cells_o, i), 0, MAXCELLS - 1, "cell", &v) < 0) return NULL;
        if (to_long(PyList_GET_ITEM(masks_o, i), 0, 0x7fffffffL, "mask", &m) < 0) return NULL;
        cells[i] = (int)v;
        masks[i] = (uint32_t)m;
    }
    HAls *v = NULL;
    Py_ssize_t nv = 0, cap = 0;
    if (house_enum(cells, masks, (int)k, (int)limit, &v, &nv, &cap) < 0) {
        free(v);
        return PyErr_NoMemory();
    }
    PyObject *out = PyList_New(0);
    if (!out) { free(v); return NULL; }
    for (Py_ssize_t x = 0; x < nv; x++) {
        const u128 cb2 = v[x].cb;
        const uint32_t m2 = v[x].m;
        PyObject *pos = PyDict_New();
        if (!pos) goto fail;
        for (int d = 1; d < 32; d++) {
            if (!(m2 >> d & 1)) continue;
            u128 pd = 0;
            for (Py_ssize_t j = 0; j < k; j++)
                if ((cb2 >> cells[j] & 1) && (masks[j] >> d & 1))
                    pd |= (u128)1 << cells[j];
            PyObject *key = PyLong_FromLong(d), *val = from_u128(pd);
            if (!key || !val || PyDict_SetItem(pos, key, val) < 0) {
                Py_XDECREF(key); Py_XDECREF(val); Py_DECREF(pos);
                goto fail;
            }
            Py_DECREF(key); Py_DECREF(val);
        }
        PyObject *cbo = from_u128(cb2);
        if (!cbo) { Py_DECREF(pos); goto fail; }
        PyObject *t = Py_BuildValue("(NkNO)", cbo, (unsigned long)m2, pos,
                                    v[x].whole ? Py_True : Py_False);
        if (!t) goto fail;
        if (PyList_Append(out, t) < 0) { Py_DECREF(t); goto fail; }
        Py_DECREF(t);
    }
    free(v);
    return out;
fail:
    free(v);
    Py_DECREF(out);
    return NULL;
}

/* ---- Sue de Coq on one pair of houses (sue_de_coq._sdc_pair) -------------------------- */
#define SDC_CELLS 32            /* cells of a side handled here */
#define SDC_SUBS 4096           /* subsets of a side */

typedef struct { u128 cb; int n; uint32_t m; } Sub;

static int read_cells(PyObject *cells_o, PyObject *masks_o, int *cells, uint32_t *masks,
                      Py_ssize_t *k) {
    *k = PyList_GET_SIZE(cells_o);
    if (*k > SDC_CELLS) return 1;
    if (PyList_GET_SIZE(masks_o) != *k) {
        PyErr_SetString(PyExc_ValueError, "_als_kernel.sdc_pair: list lengths differ");
        return -1;
    }
    for (Py_ssize_t i = 0; i < *k; i++) {
        long v, m;
        if (to_long(PyList_GET_ITEM(cells_o, i), 0, MAXCELLS - 1, "cell", &v) < 0) return -1;
        if (to_long(PyList_GET_ITEM(masks_o, i), 0, 0x7fffffffL, "mask", &m) < 0) return -1;
        cells[i] = (int)v;
        masks[i] = (uint32_t)m;
    }
    return 0;
}

/* sue_de_coq._subsets: sizes 1..max_k, each in itertools.combinations order; -1 when
 * more than SDC_SUBS */
static int subsets(const int *cells, const uint32_t *masks, int k, int max_k, Sub *out) {
    int nout = 0, idx[SDC_CELLS];
    if (max_k > k) max_k = k;
    for (int r = 1; r <= max_k; r++) {
        for (int i = 0; i < r; i++) idx[i] = i;
        for (;;) {
            if (nout >= SDC_SUBS) return -1;
            u128 cb = 0;
            uint32_t m = 0;
            for (int i = 0; i < r; i++) { cb |= (u128)1 << cells[idx[i]]; m |= masks[idx[i]]; }
            out[nout].cb = cb; out[nout].n = r; out[nout].m = m; nout++;
            int i = r - 1;
            while (i >= 0 && idx[i] == i + k - r) i--;
            if (i < 0) break;
            idx[i]++;
            for (int j = i + 1; j < r; j++) idx[j] = idx[j - 1] + 1;
        }
    }
    return nout;
}

PyDoc_STRVAR(sdc_pair_doc,
"sdc_pair(icells, imasks, cells1, masks1, cells2, masks2, max_cells, max_inter) -> list or None\n\n"
"The Sue de Coq patterns of one pair of houses (sue_de_coq._sdc_pair before its step\n"
"check): icells the unsolved cells of the intersection, cells1/cells2 those of each\n"
"house's rest (ascending), with their candidate masks. Returns (C cells, V, L cells, VL,\n"
"B cells, VB) in the Python search order; None when a side is too large.");

static PyObject *py_sdc_pair(PyObject *self, PyObject *args) {
    PyObject *ic, *im, *c1o, *m1o, *c2o, *m2o;
    long max_cells, max_inter;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!ll", &PyList_Type, &ic, &PyList_Type, &im,
                          &PyList_Type, &c1o, &PyList_Type, &m1o, &PyList_Type, &c2o,
                          &PyList_Type, &m2o, &max_cells, &max_inter))
        return NULL;
    int icells[SDC_CELLS], c1[SDC_CELLS], c2[SDC_CELLS];
    uint32_t imasks[SDC_CELLS], m1[SDC_CELLS], m2[SDC_CELLS];
    Py_ssize_t ki, k1, k2;
    int r;
    if ((r = read_cells(ic, im, icells, imasks, &ki)) != 0
        || (r = read_cells(c1o, m1o, c1, m1, &k1)) != 0
        || (r = read_cells(c2o, m2o, c2, m2, &k2)) != 0) {
        if (r < 0) return NULL;
        Py_RETURN_NONE;
    }
    if (max_cells < 0) max_cells = 0;
    if (max_inter > ki) max_inter = ki;
    Sub *subs1 = NULL, *subs2 = NULL, *side1 = NULL, *side2 = NULL;
    int n1 = 0, n2 = 0;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    int idx[SDC_CELLS];
    for (int kk = 2; kk <= max_inter; kk++) {
        for (int i = 0; i < kk; i++) idx[i] = i;
        for (;;) {
            u128 cset = 0;
            uint32_t v = 0;
            for (int i = 0; i < kk; i++) { cset |= (u128)1 << icells[idx[i]]; v |= imasks[idx[i]]; }
            int extra = __builtin_popcount(v) - kk;
            if (extra >= 2) {
                if (!subs1) {
                    subs1 = (Sub *)malloc(sizeof(Sub) * SDC_SUBS);
                    subs2 = (Sub *)malloc(sizeof(Sub) * SDC_SUBS);
                    side1 = (Sub *)malloc(sizeof(Sub) * SDC_SUBS);
                    side2 = (Sub *)malloc(sizeof(Sub) * SDC_SUBS);
                    if (!subs1 || !subs2 || !side1 || !side2) { PyErr_NoMemory(); goto fail; }
                    n1 = subsets(c1, m1, (int)k1, (int)max_cells, subs1);
                    n2 = subsets(c2, m2, (int)k2, (int)max_cells, subs2);
                    if (n1 < 0 || n2 < 0) {
                        free(subs1); free(subs2); free(side1); free(side2);
                        Py_DECREF(out);
                        Py_RETURN_NONE;
                    }
                }
                /* side sets with gain g (cells minus the digits added beyond V), 1 <= g
                 * < extra; side 2's kept with their gain in n */
                int s1 = 0, s2 = 0;
                for (int i = 0; i < n1; i++) {
                    uint32_t m = subs1[i].m;
                    if (!(m & v)) continue;
                    int g = subs1[i].n - __builtin_popcount(m & ~v);
                    if (g >= 1 && g < extra) { side1[s1] = subs1[i]; side1[s1].n = g; s1++; }
                }
                if (s1) {
                    for (int i = 0; i < n2; i++) {
                        uint32_t m = subs2[i].m;
                        if (!(m & v)) continue;
                        int g = subs2[i].n - __builtin_popcount(m & ~v);
                        if (g >= 1 && g < extra) { side2[s2] = subs2[i]; side2[s2].n = g; s2++; }
                    }
                    for (int a = 0; a < s1; a++) {
                        int want = extra - side1[a].n;
                        for (int b = 0; b < s2; b++) {
                            if (side2[b].n != want || (side1[a].m & side2[b].m)) continue;
                            PyObject *co = from_u128(cset), *lo = from_u128(side1[a].cb),
                                     *bo = from_u128(side2[b].cb);
                            if (!co || !lo || !bo) {
                                Py_XDECREF(co); Py_XDECREF(lo); Py_XDECREF(bo);
                                goto fail;
                            }
                            PyObject *t = Py_BuildValue("(NkNkNk)", co, (unsigned long)v, lo,
                                                        (unsigned long)side1[a].m, bo,
                                                        (unsigned long)side2[b].m);
                            if (!t) goto fail;
                            if (PyList_Append(out, t) < 0) { Py_DECREF(t); goto fail; }
                            Py_DECREF(t);
                        }
                    }
                }
            }
            int i = kk - 1;
            while (i >= 0 && idx[i] == i + (int)ki - kk) i--;
            if (i < 0) break;
            idx[i]++;
            for (int j = i + 1; j < kk; j++) idx[j] = idx[j - 1] + 1;
        }
    }
    free(subs1); free(subs2); free(side1); free(side2);
    return out;
fail:
    free(subs1); free(subs2); free(side1); free(side2);
    Py_DECREF(out);
    return NULL;
}

/* ---- the ALS table of a state (als._als_table) --------------------------------------- */

PyDoc_STRVAR(als_table_doc,
"als_table(ncells, house_masks, full, unsolved, cand, max_size) -> list or None\n\n"
"als._als_table: every ALS of up to max_size (0: any) free cells of one house, deduplicated\n"
"by cells, in the Python order, as (cells, digits, {digit: cells holding it}, house, in a\n"
"full house?) (house: the first house holding it as a part of its free cells, -1 when\n"
"none). full: per house, True for a full house. None when a house has more than 16 free\n"
"cells.");

static PyObject *py_als_table(PyObject *self, PyObject *args) {
    long ncells, max_size;
    PyObject *hm_o, *full_o, *uns_o, *cand_o;
    if (!PyArg_ParseTuple(args, "lO!O!OO!l", &ncells, &PyList_Type, &hm_o, &PyList_Type,
                          &full_o, &uns_o, &PyList_Type, &cand_o, &max_size))
        return NULL;
    if (ncells < 1 || ncells > MAXCELLS) Py_RETURN_NONE;
    const Py_ssize_t H = PyList_GET_SIZE(hm_o);
    if (PyList_GET_SIZE(full_o) != H || PyList_GET_SIZE(cand_o) != ncells) {
        PyErr_SetString(PyExc_ValueError, "_als_kernel.als_table: list lengths differ");
        return NULL;
    }
    u128 uns, all = ncells == 128 ? ~(u128)0 : (((u128)1 << ncells) - 1);
    if (to_u128(uns_o, &uns) < 0) return NULL;
    uint32_t cand[MAXCELLS];
    for (long c = 0; c < ncells; c++) {
        long v;
        if (to_long(PyList_GET_ITEM(cand_o, c), 0, 0x7fffffffL, "mask", &v) < 0) return NULL;
        cand[c] = (uint32_t)v;
    }
    HAls *v = NULL;
    Py_ssize_t nv = 0, cap = 0;
    Py_ssize_t *hstart = (Py_ssize_t *)malloc(sizeof(Py_ssize_t) * (H + 1));
    char *isfull = (char *)malloc(H + 1);
    if (!hstart || !isfull) { free(hstart); free(isfull); return PyErr_NoMemory(); }
    for (Py_ssize_t h = 0; h < H; h++) {
        u128 hm;
        int fl = PyObject_IsTrue(PyList_GET_ITEM(full_o, h));
        if (fl < 0 || to_u128(PyList_GET_ITEM(hm_o, h), &hm) < 0) goto fail;
        if (hm & ~all) {
            PyErr_SetString(PyExc_ValueError, "_als_kernel.als_table: cell outside the grid");
            goto fail;
        }
        isfull[h] = (char)fl;
        hstart[h] = nv;
        u128 free_ = hm & uns;
        int k = popc(free_);
        if (k > HOUSE_MAX) { free(v); free(hstart); free(isfull); Py_RETURN_NONE; }
        int cells[HOUSE_MAX];
        uint32_t masks[HOUSE_MAX];
        for (int i = 0; free_; i++) {
            cells[i] = lowbit(free_);
            masks[i] = cand[cells[i]];
            free_ &= free_ - 1;
        }
        if (house_enum(cells, masks, k, max_size ? (int)max_size : k, &v, &nv, &cap) < 0) {
            PyErr_NoMemory();
            goto fail;
        }
    }
    hstart[H] = nv;
    /* dedupe by cells in first-seen order: an open-addressing table of indices */
    {
        Py_ssize_t tsize = 1024;
        while (tsize < 2 * nv + 2) tsize <<= 1;
        int32_t *tab = (int32_t *)malloc(sizeof(int32_t) * tsize);
        int32_t *uniq = (int32_t *)malloc(sizeof(int32_t) * (nv + 1));
        int32_t *house = (int32_t *)malloc(sizeof(int32_t) * (nv + 1));
        char *infull = (char *)calloc(nv + 1, 1);
        if (!tab || !uniq || !house || !infull) {
            free(tab); free(uniq); free(house); free(infull);
            PyErr_NoMemory();
            goto fail;
        }
        for (Py_ssize_t i = 0; i < tsize; i++) tab[i] = -1;
        Py_ssize_t nu = 0;
        for (Py_ssize_t h = 0; h < H; h++) {
            for (Py_ssize_t i = hstart[h]; i < hstart[h + 1]; i++) {
                uint64_t x = (uint64_t)v[i].cb ^ ((uint64_t)(v[i].cb >> 64) * 0x9E3779B97F4A7C15ULL);
                x *= 0xBF58476D1CE4E5B9ULL;
                Py_ssize_t slot = (Py_ssize_t)((x >> 17) & (uint64_t)(tsize - 1));
                int32_t u;
                for (;;) {
                    u = tab[slot];
                    if (u < 0 || v[uniq[u]].cb == v[i].cb) break;
                    slot = (slot + 1) & (tsize - 1);
                }
                if (u < 0) {
                    u = (int32_t)nu++;
                    tab[slot] = u;
                    uniq[u] = (int32_t)i;
                    house[u] = -1;
                }
                if (house[u] < 0 && !v[i].whole) house[u] = (int32_t)h;
                if (isfull[h]) infull[u] = 1;
            }
        }
        PyObject *out = PyList_New(nu);
        if (!out) { free(tab); free(uniq); free(house); free(infull); goto fail; }
        for (Py_ssize_t u = 0; u < nu; u++) {
            const HAls *a = &v[uniq[u]];
            PyObject *pos = PyDict_New(), *cbo = NULL, *t = NULL;
            if (!pos) goto fail_out;
            for (int d = 1; d < 32; d++) {
                if (!(a->m >> d & 1)) continue;
                u128 pd = 0, cb = a->cb;
                while (cb) {
                    int c = lowbit(cb);
                    cb &= cb - 1;
                    if (cand[c] >> d & 1) pd |= (u128)1 << c;
                }
                PyObject *key = PyLong_FromLong(d), *val = from_u128(pd);
                if (!key || !val || PyDict_SetItem(pos, key, val) < 0) {
                    Py_XDECREF(key); Py_XDECREF(val); Py_DECREF(pos);
                    goto fail_out;
                }
                Py_DECREF(key); Py_DECREF(val);
            }
            cbo = from_u128(a->cb);
            if (!cbo) { Py_DECREF(pos); goto fail_out; }
            t = Py_BuildValue("(NkNiO)", cbo, (unsigned long)a->m, pos, (int)house[u],
                              infull[u] ? Py_True : Py_False);
            if (!t) goto fail_out;
            PyList_SET_ITEM(out, u, t);
            continue;
        fail_out:
            Py_DECREF(out);
            free(tab); free(uniq); free(house); free(infull);
            goto fail;
        }
        free(tab); free(uniq); free(house); free(infull);
        free(v); free(hstart); free(isfull);
        return out;
    }
fail:
    free(v); free(hstart); free(isfull);
    return NULL;
}

static PyMethodDef methods[] = {
    {"prepare", py_prepare, METH_VARARGS, prepare_doc},
    {"rccs", py_rccs, METH_VARARGS, rccs_doc},
    {"chain", py_chain, METH_VARARGS, chain_doc},
    {"xy_wing", py_xy_wing, METH_VARARGS, xy_wing_doc},
    {"xz", py_xz, METH_VARARGS, xz_doc},
    {"house_als", py_house_als, METH_VARARGS, house_als_doc},
    {"als_table", py_als_table, METH_VARARGS, als_table_doc},
    {"sdc_pair", py_sdc_pair, METH_VARARGS, sdc_pair_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_als_kernel",
    "The ALS searches of techniques.als in C (see techniques/_als_kernel.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__als_kernel(void) {
    if (u128_init() < 0) return NULL;
    return PyModule_Create(&module);
}
