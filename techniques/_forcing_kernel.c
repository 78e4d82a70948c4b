/* The propagation of forcing chains and nets (techniques/forcing/engine.py _propagate) in
 * C, for grids of at most 128 cells and 30 digits: the houses' implications, the links'
 * cross-digit weak links and a net's binary relations; a net's other rules (sums, lines
 * ...) run in Python between calls (engine._propagate_compiled: each round of the rules'
 * removals comes back here as ``queued``).
 *
 * engine.py stays the reference and the fallback (SUDOKU_CSP_PURE=1, module not built,
 * other grids): both give the same derivation (the parents dict: the same facts, in the
 * same order, with the same premises), the same candidates and the same contradiction,
 * which tests/techniques/test_forcing_kernel.py checks. The kernel works on the Python
 * state in place (candidate list, cells-per-digit list, parents dict) and returns the
 * contradiction as a small tuple that engine.py turns into its text.
 *
 * Interface:
 *   links(size, n, peers_d, full_masks, cell_houses, full_ids, label) -> capsule (per
 *       puzzle) or None (a grid it does not take)
 *       peers_d: n + 1 lists of size ints; full_masks: the cell masks of the full houses
 *       (_Static.full order); cell_houses: per cell, the indices (into full_masks) of its
 *       full houses in _Static.cell_full order; full_ids: the full houses' ids (indices
 *       into an.houses); label: the first premise of a locked candidates removal.
 *   static(links, cand, cw, done, chain[, cross, binary, binary_t]) -> capsule (per
 *       analysis)
 *       cand: the analysis' candidates; cw: n + 1 cell masks; done: per full house the
 *       digits placed in it; chain: [(k, e, others or None)] (_Static.chain's entries that
 *       are not None, k = cell << 5 | digit, others: the other place per house, -1: none);
 *       cross: [(k, ((cell, digit), ...))] (_Static.cross_k's entries); binary: per cell,
 *       its live relations (other cell, supports per digit 0..n, name) (_Static.binary_live,
 *       the supports as unions per digit); binary_t: _Static.binary_t (empty: no binary).
 *   propagate(static, cand, cw, on, parents, facts, net, inter[, queued]) -> (on, contra)
 *       facts: [(fact, premises)] to add, then propagated (a chain, a net, with inter a
 *       net with locked candidates: engine._locked, its dirty houses walked in the order
 *       of the same Python set). queued: facts already added to the state (the rules'
 *       removals), queued before ``facts``. contra: None, ("two", c, other, d),
 *       ("both", c, d), ("empty", c) or ("house", c, d, j) (j: the index of the house
 *       among c's).
 *   assume(static, cand, cw, fact, net, inter) -> (cand, cw, on, parents, contra)
 *       engine._assume: propagate() of [(fact, ())] on (cand[:], cw[:], 0, {}) where cand
 *       and cw are the analysis' own lists (the static's base: not read, only copied).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#define KERNEL_NAME "_forcing_kernel"
#include "_u128.h"

#define MAXCELLS 128
#define MAXDIG 30
#define ND (MAXDIG + 1)
#define MAXFULL 256
#define MAXIDS 4096                /* house ids (an.houses indices) */
#define HPC 8                      /* full houses per cell */
#define NFACTS (MAXCELLS << 6)

typedef struct {
    int size, n, nfull;
    u128 peers[ND][MAXCELLS];
    u128 full[MAXFULL];
    int nh[MAXCELLS];
    int16_t houses[MAXCELLS][HPC];
    int16_t id[MAXFULL];           /* the house id (index into an.houses) of each */
    int16_t of_id[MAXIDS];         /* house id -> index here, -1: not a full house */
    int nover[MAXFULL];
    int16_t over[MAXFULL][MAXFULL];   /* the full houses sharing 2+ cells, in order */
    PyObject *label;               /* the premise label of a locked candidates removal */
} Links;

typedef struct {
    PyObject *links_cap;           /* keeps the links alive */
    const Links *L;
    uint32_t base[MAXCELLS];
    u128 base_cw[ND];
    uint32_t done[MAXFULL];
    int8_t e[MAXCELLS * 32];       /* the other digit of a bivalue cell, else 0 */
    int8_t has_bl[MAXCELLS * 32];
    int16_t other[MAXCELLS * 32][HPC];
    /* cross-digit weak links per candidate index k: items cross_off[k] .. cross_off[k+1] */
    int32_t cross_off[MAXCELLS * 32 + 1];
    int16_t *cross_c;
    int8_t *cross_d;
    /* binary relations per cell: items bin_off[c] .. bin_off[c+1] (nets only) */
    int has_bin;
    int32_t bin_off[MAXCELLS + 1];
    int16_t *bin_o;
    uint32_t *bin_sup;             /* (n + 1) supports per relation, per digit */
    PyObject **bin_name;           /* owned references */
    int32_t bin_cap;               /* bin_name's length */
    int bin_t[MAXCELLS];
} Static;

static PyObject *FACT[NFACTS];     /* the facts as ints, made once */

static inline PyObject *fact_obj(int f) {     /* borrowed */
    if (!FACT[f]) FACT[f] = PyLong_FromLong(f);
    return FACT[f];
}

static int to_long(PyObject *o, long lo, long hi, const char *what, long *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "_forcing_kernel: %s out of range", what);
        return -1;
    }
    *out = v;
    return 0;
}

static int cell_mask(PyObject *o, int size, u128 *out) {
    if (to_u128(o, out) < 0) return -1;
    if (size < 128 && (*out >> size)) {
        PyErr_SetString(PyExc_ValueError, "_forcing_kernel: cell outside the grid");
        return -1;
    }
    return 0;
}

static void links_free(PyObject *cap) {
    Links *L = (Links *)PyCapsule_GetPointer(cap, "forcing_links");
    if (L) {
        Py_XDECREF(L->label);
        free(L);
    }
}

static PyObject *py_links(PyObject *self, PyObject *args) {
    long size, n;
    PyObject *peers, *full, *ch, *ids, *label;
    if (!PyArg_ParseTuple(args, "llO!O!O!O!O", &size, &n, &PyList_Type, &peers, &PyList_Type,
                          &full, &PyList_Type, &ch, &PyList_Type, &ids, &label))
        return NULL;
    if (size < 1 || size > MAXCELLS || n < 1 || n > MAXDIG
        || PyList_GET_SIZE(full) > MAXFULL)
        Py_RETURN_NONE;
    if (PyList_GET_SIZE(peers) != n + 1 || PyList_GET_SIZE(ch) != size
        || PyList_GET_SIZE(ids) != PyList_GET_SIZE(full)) {
        PyErr_SetString(PyExc_ValueError, "_forcing_kernel.links: list lengths");
        return NULL;
    }
    Links *L = (Links *)calloc(1, sizeof(Links));
    if (!L) return PyErr_NoMemory();
    L->size = (int)size; L->n = (int)n; L->nfull = (int)PyList_GET_SIZE(full);
    for (int d = 1; d <= n; d++) {
        PyObject *row = PyList_GET_ITEM(peers, d);
        if (!PyList_Check(row) || PyList_GET_SIZE(row) != size) {
            PyErr_SetString(PyExc_ValueError, "_forcing_kernel.links: peers rows");
            goto fail;
        }
        for (int c = 0; c < size; c++)
            if (cell_mask(PyList_GET_ITEM(row, c), (int)size, &L->peers[d][c]) < 0) goto fail;
    }
    for (int i = 0; i < L->nfull; i++)
        if (cell_mask(PyList_GET_ITEM(full, i), (int)size, &L->full[i]) < 0) goto fail;
    for (int h = 0; h < MAXIDS; h++) L->of_id[h] = -1;
    for (int i = 0; i < L->nfull; i++) {
        long h;
        if (to_long(PyList_GET_ITEM(ids, i), 0, MAXIDS - 1, "house id", &h) < 0) goto fail;
        if (L->of_id[h] >= 0) {
            PyErr_SetString(PyExc_ValueError, "_forcing_kernel.links: a house twice");
            goto fail;
        }
        L->id[i] = (int16_t)h;
        L->of_id[h] = (int16_t)i;
    }
    for (int i = 0; i < L->nfull; i++)
        for (int j = 0; j < L->nfull; j++)
            if (j != i && popc(L->full[i] & L->full[j]) > 1)
                L->over[i][L->nover[i]++] = (int16_t)j;
    for (int c = 0; c < size; c++) {
        PyObject *hs = PyList_GET_ITEM(ch, c);
        if (!PyTuple_Check(hs) && !PyList_Check(hs)) {
            PyErr_SetString(PyExc_TypeError, "_forcing_kernel.links: cell houses");
            goto fail;
        }
        Py_ssize_t k = PySequence_Fast_GET_SIZE(hs);
        if (k > HPC) { free(L); Py_RETURN_NONE; }
        L->nh[c] = (int)k;
        for (Py_ssize_t j = 0; j < k; j++) {
            long h;
            if (to_long(PySequence_Fast_GET_ITEM(hs, j), 0, L->nfull - 1, "house", &h) < 0)
                goto fail;
            if (!(L->full[h] >> c & 1)) {
                PyErr_SetString(PyExc_ValueError, "_forcing_kernel.links: cell not in house");
                goto fail;
            }
            L->houses[c][j] = (int16_t)h;
        }
    }
    PyObject *cap = PyCapsule_New(L, "forcing_links", links_free);
    if (!cap) goto fail;
    Py_INCREF(label);
    L->label = label;
    return cap;
fail:
    free(L);
    return NULL;
}

static void static_release(Static *S) {
    Py_XDECREF(S->links_cap);
    if (S->bin_name) {
        for (int32_t i = 0; i < S->bin_cap; i++) Py_XDECREF(S->bin_name[i]);
        free(S->bin_name);
    }
    free(S->cross_c);
    free(S->cross_d);
    free(S->bin_o);
    free(S->bin_sup);
    free(S);
}

/* cross: [(k, ((cell, digit), ...))] into S->cross_*; 0, or -1 with an exception set */
static int read_cross(Static *S, PyObject *cross) {
    const int size = S->L->size, n = S->L->n;
    const Py_ssize_t nk = PyList_GET_SIZE(cross);
    int32_t *cnt = (int32_t *)calloc((size_t)size * 32 + 1, sizeof(int32_t));
    if (!cnt) { PyErr_NoMemory(); return -1; }
    long total = 0;
    for (Py_ssize_t i = 0; i < nk; i++) {
        PyObject *t = PyList_GET_ITEM(cross, i);
        long k;
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(t, 1))) {
            PyErr_SetString(PyExc_TypeError, "_forcing_kernel.static: cross entries");
            goto fail;
        }
        if (to_long(PyTuple_GET_ITEM(t, 0), 0, (long)size * 32 - 1, "cross index", &k) < 0)
            goto fail;
        if (cnt[k]) {
            PyErr_SetString(PyExc_ValueError, "_forcing_kernel.static: a cross index twice");
            goto fail;
        }
        cnt[k] = (int32_t)PyTuple_GET_SIZE(PyTuple_GET_ITEM(t, 1));
        total += cnt[k];
        if (total > (long)size * 32 * (long)size) {
            PyErr_SetString(PyExc_ValueError, "_forcing_kernel.static: too many cross links");
            goto fail;
        }
    }
    S->cross_c = (int16_t *)malloc(sizeof(int16_t) * (size_t)(total + 1));
    S->cross_d = (int8_t *)malloc(sizeof(int8_t) * (size_t)(total + 1));
    if (!S->cross_c || !S->cross_d) { PyErr_NoMemory(); goto fail; }
    S->cross_off[0] = 0;
    for (int k = 0; k < size * 32; k++) S->cross_off[k + 1] = S->cross_off[k] + cnt[k];
    for (int k = size * 32; k < MAXCELLS * 32; k++) S->cross_off[k + 1] = S->cross_off[k];
    for (Py_ssize_t i = 0; i < nk; i++) {
        PyObject *t = PyList_GET_ITEM(cross, i);
        const long k = PyLong_AsLong(PyTuple_GET_ITEM(t, 0));
        PyObject *items = PyTuple_GET_ITEM(t, 1);
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(items); j++) {
            PyObject *x = PyTuple_GET_ITEM(items, j);
            long c2, d2;
            if (!PyTuple_Check(x) || PyTuple_GET_SIZE(x) != 2) {
                PyErr_SetString(PyExc_TypeError, "_forcing_kernel.static: cross links");
                goto fail;
            }
            if (to_long(PyTuple_GET_ITEM(x, 0), 0, size - 1, "cell", &c2) < 0
                || to_long(PyTuple_GET_ITEM(x, 1), 1, n, "digit", &d2) < 0)
                goto fail;
            S->cross_c[S->cross_off[k] + j] = (int16_t)c2;
            S->cross_d[S->cross_off[k] + j] = (int8_t)d2;
        }
    }
    free(cnt);
    return 0;
fail:
    free(cnt);
    return -1;
}

/* binary: per cell [(other, supports (n + 1 ints), name)]; binary_t: per cell an int */
static int read_binary(Static *S, PyObject *binary, PyObject *bt) {
    const int size = S->L->size, n = S->L->n;
    if (PyList_GET_SIZE(binary) == 0) return 0;
    if (PyList_GET_SIZE(binary) != size || PyList_GET_SIZE(bt) != size) {
        PyErr_SetString(PyExc_ValueError, "_forcing_kernel.static: binary lists");
        return -1;
    }
    long total = 0;
    for (int c = 0; c < size; c++) {
        PyObject *rels = PyList_GET_ITEM(binary, c);
        long t;
        if (!PyTuple_Check(rels)) {
            PyErr_SetString(PyExc_TypeError, "_forcing_kernel.static: binary relations");
            return -1;
        }
        if (to_long(PyList_GET_ITEM(bt, c), 0, 64, "binary limit", &t) < 0) return -1;
        S->bin_t[c] = (int)t;
        S->bin_off[c] = (int32_t)total;
        total += PyTuple_GET_SIZE(rels);
        if (total > (long)size * size * 4) {
            PyErr_SetString(PyExc_ValueError, "_forcing_kernel.static: too many relations");
            return -1;
        }
    }
    S->bin_off[size] = (int32_t)total;
    S->bin_o = (int16_t *)malloc(sizeof(int16_t) * (size_t)(total + 1));
    S->bin_sup = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(total + 1) * (n + 1));
    S->bin_name = (PyObject **)calloc((size_t)(total + 1), sizeof(PyObject *));
    if (!S->bin_o || !S->bin_sup || !S->bin_name) { PyErr_NoMemory(); return -1; }
    S->bin_cap = (int32_t)total;
    S->has_bin = 1;
    for (int c = 0; c < size; c++) {
        PyObject *rels = PyList_GET_ITEM(binary, c);
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(rels); j++) {
            const int32_t i = S->bin_off[c] + (int32_t)j;
            PyObject *r = PyTuple_GET_ITEM(rels, j);
            long o;
            if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 3
                || !PyTuple_Check(PyTuple_GET_ITEM(r, 1))
                || PyTuple_GET_SIZE(PyTuple_GET_ITEM(r, 1)) != n + 1) {
                PyErr_SetString(PyExc_TypeError, "_forcing_kernel.static: a binary relation");
                return -1;
            }
            if (to_long(PyTuple_GET_ITEM(r, 0), 0, size - 1, "cell", &o) < 0) return -1;
            S->bin_o[i] = (int16_t)o;
            for (int d = 0; d <= n; d++) {
                long v;
                if (to_long(PyTuple_GET_ITEM(PyTuple_GET_ITEM(r, 1), d), 0,
                            (1L << (n + 1)) - 1, "supports", &v) < 0)
                    return -1;
                S->bin_sup[(size_t)i * (n + 1) + d] = (uint32_t)v;
            }
            Py_INCREF(PyTuple_GET_ITEM(r, 2));
            S->bin_name[i] = PyTuple_GET_ITEM(r, 2);
        }
    }
    return 0;
}

static void static_free(PyObject *cap) {
    Static *S = (Static *)PyCapsule_GetPointer(cap, "forcing_static");
    if (S) static_release(S);
}

static int read_cand(PyObject *list, int size, int n, uint32_t *cand) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != size) {
        PyErr_SetString(PyExc_ValueError, "_forcing_kernel: candidates list");
        return -1;
    }
    long lim = (1L << (n + 1)) - 2;
    for (int c = 0; c < size; c++) {
        long v;
        if (to_long(PyList_GET_ITEM(list, c), 0, lim, "candidate mask", &v) < 0) return -1;
        if (v & ~lim) {
            PyErr_SetString(PyExc_ValueError, "_forcing_kernel: candidate mask");
            return -1;
        }
        cand[c] = (uint32_t)v;
    }
    return 0;
}

static int read_cw(PyObject *list, int size, int n, u128 *cw) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != n + 1) {
        PyErr_SetString(PyExc_ValueError, "_forcing_kernel: cells-per-digit list");
        return -1;
    }
    for (int d = 0; d <= n; d++)
        if (cell_mask(PyList_GET_ITEM(list, d), size, &cw[d]) < 0) return -1;
    return 0;
}

static PyObject *py_static(PyObject *self, PyObject *args) {
    PyObject *lcap, *cand, *cw, *done, *chain, *cross = NULL, *binary = NULL, *bt = NULL;
    if (!PyArg_ParseTuple(args, "OO!O!O!O!|O!O!O!", &lcap, &PyList_Type, &cand, &PyList_Type,
                          &cw, &PyList_Type, &done, &PyList_Type, &chain, &PyList_Type,
                          &cross, &PyList_Type, &binary, &PyList_Type, &bt))
        return NULL;
    if ((binary == NULL) != (bt == NULL)) {
        PyErr_SetString(PyExc_TypeError, "_forcing_kernel.static: binary and its limits");
        return NULL;
    }
    const Links *L = (const Links *)PyCapsule_GetPointer(lcap, "forcing_links");
    if (!L) return NULL;
    Static *S = (Static *)calloc(1, sizeof(Static));
    if (!S) return PyErr_NoMemory();
    S->L = L;
    const int size = L->size, n = L->n;
    if (read_cand(cand, size, n, S->base) < 0 || read_cw(cw, size, n, S->base_cw) < 0)
        goto fail;
    if ((cross && read_cross(S, cross) < 0) || (binary && read_binary(S, binary, bt) < 0))
        goto fail;
    if (PyList_GET_SIZE(done) != L->nfull) {
        PyErr_SetString(PyExc_ValueError, "_forcing_kernel.static: done list");
        goto fail;
    }
    for (int i = 0; i < L->nfull; i++) {
        long v;
        if (to_long(PyList_GET_ITEM(done, i), 0, (1L << (n + 1)) - 1, "done mask", &v) < 0)
            goto fail;
        S->done[i] = (uint32_t)v;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(chain); i++) {
        PyObject *t = PyList_GET_ITEM(chain, i);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3) {
            PyErr_SetString(PyExc_TypeError, "_forcing_kernel.static: chain entries");
            goto fail;
        }
        long k, e;
        if (to_long(PyTuple_GET_ITEM(t, 0), 0, (long)size * 32 - 1, "chain index", &k) < 0
            || to_long(PyTuple_GET_ITEM(t, 1), 0, n, "digit", &e) < 0)
            goto fail;
        if ((k & 31) < 1 || (k & 31) > n) {
            PyErr_SetString(PyExc_ValueError, "_forcing_kernel.static: chain digit");
            goto fail;
        }
        S->e[k] = (int8_t)e;
        PyObject *o = PyTuple_GET_ITEM(t, 2);
        if (o == Py_None) continue;
        const int c = (int)(k >> 5);
        if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != L->nh[c]) {
            PyErr_SetString(PyExc_ValueError, "_forcing_kernel.static: chain houses");
            goto fail;
        }
        S->has_bl[k] = 1;
        for (int j = 0; j < L->nh[c]; j++) {
            long c2;
            if (to_long(PyTuple_GET_ITEM(o, j), -1, size - 1, "cell", &c2) < 0) goto fail;
            S->other[k][j] = (int16_t)c2;
        }
    }
    PyObject *cap = PyCapsule_New(S, "forcing_static", static_free);
    if (!cap) goto fail;
    Py_INCREF(lcap);
    S->links_cap = lcap;
    return cap;
fail:
    static_release(S);
    return NULL;
}

/* ---- the propagation ---------------------------------------------------------------- */
typedef struct {
    const Static *S;
    const Links *L;
    uint32_t cand[MAXCELLS];
    u128 cw[ND];
    u128 on;
    PyObject *parents;
    int *queue;
    int qlen, qcap;
    PyObject *contra;     /* the contradiction tuple (new reference) */
} P;

enum { OK = 0, STOP = 1, ERR = -1 };

static inline int put(P *p, int f, PyObject *prem) {
    PyObject *k = fact_obj(f);
    if (!k) return ERR;
    return PyDict_SetItem(p->parents, k, prem) < 0 ? ERR : OK;
}

static inline int push(P *p, int f) {
    if (p->qlen >= p->qcap) {
        PyErr_SetString(PyExc_RuntimeError, "_forcing_kernel: queue overflow");
        return ERR;
    }
    p->queue[p->qlen++] = f;
    return OK;
}

static int contra(P *p, PyObject *t) {
    if (!t) return ERR;
    p->contra = t;
    return STOP;
}

/* a one-fact premise (f,) */
static PyObject *one(int f) {
    PyObject *k = fact_obj(f);
    if (!k) return NULL;
    PyObject *t = PyTuple_New(1);
    if (!t) return NULL;
    Py_INCREF(k);
    PyTuple_SET_ITEM(t, 0, k);
    return t;
}

/* engine.set_on; prem borrowed */
static int set_on(P *p, int c, int d, PyObject *prem) {
    const int f = ((c << 5 | d) << 1) | 1;
    const u128 bit = (u128)1 << c;
    const uint32_t m0 = p->cand[c];
    if (p->on & bit) {
        if (m0 == (uint32_t)1 << d) return OK;
        int other = m0 ? 31 - __builtin_clz(m0) : 0;
        if (put(p, f, prem)) return ERR;
        return contra(p, Py_BuildValue("(siii)", "two", c, other, d));
    }
    if (!(m0 >> d & 1)) {
        if (put(p, f, prem)) return ERR;
        return contra(p, Py_BuildValue("(sii)", "both", c, d));
    }
    p->on |= bit;
    if (put(p, f, prem) || push(p, f)) return ERR;
    uint32_t m = m0 & ~((uint32_t)1 << d);
    if (m) {
        PyObject *own = one(f);
        if (!own) return ERR;
        p->cand[c] = (uint32_t)1 << d;
        const int g = c << 6;
        while (m) {
            int e = __builtin_ctz(m);
            m &= m - 1;
            if (put(p, g | e << 1, own)) { Py_DECREF(own); return ERR; }
            p->cw[e] &= ~bit;
            if (push(p, g | e << 1)) { Py_DECREF(own); return ERR; }
        }
        Py_DECREF(own);
    }
    return OK;
}

/* engine.set_off */
static int set_off(P *p, int c, int d, PyObject *prem) {
    uint32_t m = p->cand[c];
    if (!(m >> d & 1)) return OK;
    const int f = (c << 5 | d) << 1;
    if (put(p, f, prem)) return ERR;
    if ((p->on >> c & 1) && m == (uint32_t)1 << d)
        return contra(p, Py_BuildValue("(sii)", "both", c, d));
    m &= ~((uint32_t)1 << d);
    p->cand[c] = m;
    p->cw[d] &= ~((u128)1 << c);
    if (!m) return contra(p, Py_BuildValue("(si)", "empty", c));
    return push(p, f);
}

/* whether full house i has d placed or a place for d */
static inline int has_place(const P *p, int i, int d) {
    return (p->S->done[i] >> d & 1) || (p->L->full[i] & p->cw[d]) != 0;
}

static int run(P *p, int net, int from) {
    const Static *S = p->S;
    const Links *L = p->L;
    for (int qi = from; qi < p->qlen; qi++) {
        const int f = p->queue[qi];
        const int k = f >> 1, c = k >> 5, d = k & 31;
        if (f & 1) {
            u128 q = L->peers[d][c] & p->cw[d];
            const int32_t x0 = S->cross_off[k], x1 = S->cross_off[k + 1];
            if (!q && x0 == x1) continue;
            PyObject *prem = one(f);
            if (!prem) return ERR;
            const uint32_t bit = (uint32_t)1 << d;
            int r = OK;
            while (q) {
                int x = lowbit(q);
                q &= q - 1;
                const int g = x << 6 | d << 1;
                if ((r = put(p, g, prem))) break;
                uint32_t m = p->cand[x];
                if (m == bit && (p->on >> x & 1)) {
                    r = contra(p, Py_BuildValue("(sii)", "both", x, d));
                    break;
                }
                m ^= bit;
                p->cand[x] = m;
                p->cw[d] &= ~((u128)1 << x);
                if (!m) {
                    r = contra(p, Py_BuildValue("(si)", "empty", x));
                    break;
                }
                if ((r = push(p, g))) break;
            }
            /* the cross-digit weak links of c=d */
            for (int32_t i = x0; !r && i < x1; i++) {
                const int c2 = S->cross_c[i], d2 = S->cross_d[i];
                if (p->cand[c2] >> d2 & 1) r = set_off(p, c2, d2, prem);
            }
            Py_DECREF(prem);
            if (r) return r;
            continue;
        }
        const int nh = L->nh[c];
        const int16_t *hs = L->houses[c];
        if (!net) {
            /* a chain: strong links only */
            const int e = S->e[k];
            if (!S->has_bl[k]) {
                if (e && !(p->on >> c & 1)) {
                    PyObject *prem = one(f);
                    if (!prem) return ERR;
                    int r = set_on(p, c, e, prem);
                    Py_DECREF(prem);
                    if (r) return r;
                }
                for (int j = 0; j < nh; j++)
                    if (!has_place(p, hs[j], d))
                        return contra(p, Py_BuildValue("(siii)", "house", c, d, j));
                continue;
            }
            PyObject *prem = one(f);
            if (!prem) return ERR;
            int r = OK;
            if (e && !(p->on >> c & 1)) r = set_on(p, c, e, prem);
            for (int j = 0; !r && j < nh; j++) {
                if (!has_place(p, hs[j], d)) {
                    r = contra(p, Py_BuildValue("(siii)", "house", c, d, j));
                    break;
                }
                const int c2 = S->other[k][j];
                if (c2 >= 0 && !(p->on >> c2 & 1)) r = set_on(p, c2, d, prem);
            }
            Py_DECREF(prem);
            if (r) return r;
            continue;
        }
        /* a net: binary relations lose the digits c=d supported alone */
        if (S->has_bin && S->bin_off[c + 1] > S->bin_off[c]
            && __builtin_popcount(p->cand[c]) <= S->bin_t[c]) {
            const uint32_t mc = p->cand[c];
            const int n1 = L->n + 1;
            for (int32_t i = S->bin_off[c]; i < S->bin_off[c + 1]; i++) {
                const int o = S->bin_o[i];
                const uint32_t *sup = S->bin_sup + (size_t)i * n1;
                uint32_t keep = 0, b = mc;
                while (b) {
                    keep |= sup[__builtin_ctz(b)];
                    b &= b - 1;
                }
                uint32_t drop = p->cand[o] & ~keep;
                if (!drop) continue;
                uint32_t gone = S->base[c] & ~mc;
                PyObject *prem = PyTuple_New(1 + __builtin_popcount(gone));
                if (!prem) return ERR;
                Py_INCREF(S->bin_name[i]);
                PyTuple_SET_ITEM(prem, 0, S->bin_name[i]);
                for (Py_ssize_t t = 1; gone; t++) {
                    const int x = __builtin_ctz(gone);
                    gone &= gone - 1;
                    PyObject *fo = fact_obj(c << 6 | x << 1);
                    if (!fo) { Py_DECREF(prem); return ERR; }
                    Py_INCREF(fo);
                    PyTuple_SET_ITEM(prem, t, fo);
                }
                int r = OK;
                while (!r && drop) {
                    const int x = __builtin_ctz(drop);
                    drop &= drop - 1;
                    r = set_off(p, o, x, prem);
                }
                Py_DECREF(prem);
                if (r) return r;
            }
        }
        /* a net: naked single */
        const uint32_t m = p->cand[c];
        if (m && !(m & (m - 1)) && !(p->on >> c & 1)) {
            const int e = 31 - __builtin_clz(m);
            PyObject *prem = PyTuple_New(0), *item;
            if (!prem) return ERR;
            uint32_t b = S->base[c] & ~((uint32_t)1 << e);
            Py_ssize_t np = 0;
            PyObject *tmp[32];
            while (b) {
                int x = __builtin_ctz(b);
                b &= b - 1;
                item = fact_obj(c << 6 | x << 1);
                if (!item) { Py_DECREF(prem); return ERR; }
                int has = PyDict_Contains(p->parents, item);
                if (has < 0) { Py_DECREF(prem); return ERR; }
                if (has) tmp[np++] = item;
            }
            Py_DECREF(prem);
            prem = PyTuple_New(np);
            if (!prem) return ERR;
            for (Py_ssize_t i = 0; i < np; i++) {
                Py_INCREF(tmp[i]);
                PyTuple_SET_ITEM(prem, i, tmp[i]);
            }
            int r = set_on(p, c, e, prem);
            Py_DECREF(prem);
            if (r) return r;
        }
        /* hidden singles (or no place) in c's houses */
        for (int j = 0; j < nh; j++) {
            const int i = hs[j];
            if (S->done[i] >> d & 1) continue;
            const u128 q = L->full[i] & p->cw[d];
            if ((q & (q - 1)) || (q & p->on)) continue;
            if (!q) return contra(p, Py_BuildValue("(siii)", "house", c, d, j));
            u128 rest = L->full[i] & S->base_cw[d] & ~q;
            PyObject *prem = PyTuple_New(popc(rest));
            if (!prem) return ERR;
            Py_ssize_t t = 0;
            while (rest) {
                int x = lowbit(rest);
                rest &= rest - 1;
                PyObject *o = fact_obj(x << 6 | d << 1);
                if (!o) { Py_DECREF(prem); return ERR; }
                Py_INCREF(o);
                PyTuple_SET_ITEM(prem, t++, o);
            }
            int r = set_on(p, lowbit(q), d, prem);
            Py_DECREF(prem);
            if (r) return r;
        }
    }
    return OK;
}

/* engine._locked on the facts queue[from:to]: the houses whose digit lost a place, in the
 * order of the Python set of (house id, digit) pairs (built here the same way) */
static int locked(P *p, int from, int to) {
    const Static *S = p->S;
    const Links *L = p->L;
    PyObject *dirty = PySet_New(NULL);
    if (!dirty) return ERR;
    int r = OK;
    for (int qi = from; qi < to && !r; qi++) {
        const int f = p->queue[qi];
        if (f & 1) continue;
        const int c = f >> 6, d = (f >> 1) & 31;
        for (int j = 0; j < L->nh[c]; j++) {
            PyObject *t = Py_BuildValue("(ii)", L->id[L->houses[c][j]], d);
            if (!t || PySet_Add(dirty, t) < 0) { Py_XDECREF(t); r = ERR; break; }
            Py_DECREF(t);
        }
    }
    PyObject *it = r ? NULL : PyObject_GetIter(dirty), *item;
    if (!it) { Py_DECREF(dirty); return ERR; }
    while (!r && (item = PyIter_Next(it)) != NULL) {
        const int i = L->of_id[PyLong_AsLong(PyTuple_GET_ITEM(item, 0))];
        const int d = (int)PyLong_AsLong(PyTuple_GET_ITEM(item, 1));
        Py_DECREF(item);
        if (S->done[i] >> d & 1) continue;
        const u128 q = L->full[i] & p->cw[d];
        if (!(q & (q - 1))) continue;     /* no place or one: the singles see to it */
        for (int k = 0; k < L->nover[i] && !r; k++) {
            const int g = L->over[i][k];
            if (q & ~L->full[g]) continue;
            u128 out = L->full[g] & p->cw[d] & ~L->full[i];
            if (!out) continue;
            u128 rest = L->full[i] & S->base_cw[d] & ~L->full[g];
            PyObject *prem = PyTuple_New(1 + popc(rest));
            if (!prem) { r = ERR; break; }
            Py_INCREF(L->label);
            PyTuple_SET_ITEM(prem, 0, L->label);
            for (Py_ssize_t t = 1; rest; t++) {
                int x = lowbit(rest);
                rest &= rest - 1;
                PyObject *o = fact_obj(x << 6 | d << 1);
                if (!o) { r = ERR; break; }
                Py_INCREF(o);
                PyTuple_SET_ITEM(prem, t, o);
            }
            while (!r && out) {
                int x = lowbit(out);
                out &= out - 1;
                r = set_off(p, x, d, prem);
            }
            Py_DECREF(prem);
        }
    }
    Py_DECREF(it);
    Py_DECREF(dirty);
    if (!r && PyErr_Occurred()) r = ERR;
    return r;
}

static PyObject *py_propagate(PyObject *self, PyObject *args) {
    PyObject *scap, *cand_o, *cw_o, *on_o, *parents, *facts, *queued = NULL;
    int net, inter;
    if (!PyArg_ParseTuple(args, "OO!O!OO!O!pp|O!", &scap, &PyList_Type, &cand_o, &PyList_Type,
                          &cw_o, &on_o, &PyDict_Type, &parents, &PyList_Type, &facts,
                          &net, &inter, &PyList_Type, &queued))
        return NULL;
    const Static *S = (const Static *)PyCapsule_GetPointer(scap, "forcing_static");
    if (!S) return NULL;
    const Links *L = S->L;
    const int size = L->size, n = L->n;
    P p;
    p.S = S; p.L = L; p.parents = parents; p.contra = NULL;
    uint32_t cand0[MAXCELLS];
    u128 cw0[ND];
    if (read_cand(cand_o, size, n, p.cand) < 0 || read_cw(cw_o, size, n, p.cw) < 0
        || cell_mask(on_o, size, &p.on) < 0)
        return NULL;
    memcpy(cand0, p.cand, sizeof cand0);
    memcpy(cw0, p.cw, sizeof cw0);
    /* each candidate leaves once and each cell is set true once */
    const Py_ssize_t nq = queued ? PyList_GET_SIZE(queued) : 0;
    if (nq > (Py_ssize_t)size * 64) {
        PyErr_SetString(PyExc_ValueError, "_forcing_kernel: too many queued facts");
        return NULL;
    }
    p.qcap = size * (n + 2) + (int)PyList_GET_SIZE(facts) + (int)nq + 8;
    p.queue = (int *)malloc(sizeof(int) * p.qcap);
    if (!p.queue) return PyErr_NoMemory();
    p.qlen = 0;
    int r = OK;
    for (Py_ssize_t i = 0; !r && i < nq; i++) {
        long f;
        if (to_long(PyList_GET_ITEM(queued, i), 0, (long)size * 64 - 1, "fact", &f) < 0
            || ((f >> 1) & 31) < 1 || ((f >> 1) & 31) > n) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "_forcing_kernel: fact digit");
            r = ERR;
            break;
        }
        r = push(&p, (int)f);
    }
    for (Py_ssize_t i = 0; !r && i < PyList_GET_SIZE(facts); i++) {
        PyObject *t = PyList_GET_ITEM(facts, i);
        long f;
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2) {
            PyErr_SetString(PyExc_TypeError, "_forcing_kernel: facts are (fact, premises)");
            r = ERR;
            break;
        }
        if (to_long(PyTuple_GET_ITEM(t, 0), 0, (long)size * 64 - 1, "fact", &f) < 0) {
            r = ERR;
            break;
        }
        const int c = (int)(f >> 6), d = (int)((f >> 1) & 31);
        if (d < 1 || d > n) {
            PyErr_SetString(PyExc_ValueError, "_forcing_kernel: fact digit");
            r = ERR;
            break;
        }
        PyObject *prem = PyTuple_GET_ITEM(t, 1);
        r = (f & 1) ? set_on(&p, c, d, prem) : set_off(&p, c, d, prem);
    }
    if (!r) r = run(&p, net, 0);
    /* a net with locked candidates: once the queue is drained, the locked candidates of
     * the facts since the last round; their removals are the next round's queue */
    for (int from = 0; !r && net && inter;) {
        const int k = p.qlen;
        r = locked(&p, from, k);
        if (r || p.qlen == k) break;
        from = k;
        r = run(&p, net, k);
    }
    PyObject *out = NULL;
    if (r == ERR) goto done;
    /* write back what changed */
    for (int c = 0; c < size; c++)
        if (p.cand[c] != cand0[c]) {
            PyObject *v = PyLong_FromUnsignedLong(p.cand[c]);
            if (!v || PyList_SetItem(cand_o, c, v) < 0) goto done;
        }
    for (int d = 0; d <= n; d++)
        if (p.cw[d] != cw0[d]) {
            PyObject *v = from_u128(p.cw[d]);
            if (!v || PyList_SetItem(cw_o, d, v) < 0) goto done;
        }
    PyObject *on = from_u128(p.on);
    if (!on) goto done;
    out = Py_BuildValue("(NO)", on, p.contra ? p.contra : Py_None);
done:
    Py_XDECREF(p.contra);
    free(p.queue);
    return out;
}

/* engine._assume: ``fact`` propagated from the analysis' own grid (the static's base, which
 * ``cand`` and ``cw``, that grid's lists, hold: copied for the result, not read) with the
 * empty premise, as propagate() on (cand[:], cw[:], 0, {}) with [(fact, ())] gives it ->
 * (cand, cw, on, parents, contra), the new state's lists and derivation */
static PyObject *py_assume(PyObject *self, PyObject *args) {
    PyObject *scap, *cand_o, *cw_o;
    long f;
    int net, inter;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!O!lpp", &scap, &PyList_Type, &cand_o, &PyList_Type, &cw_o,
                          &f, &net, &inter))
        return NULL;
    const Static *S = (const Static *)PyCapsule_GetPointer(scap, "forcing_static");
    if (!S) return NULL;
    const Links *L = S->L;
    const int size = L->size, n = L->n;
    if (PyList_GET_SIZE(cand_o) != size || PyList_GET_SIZE(cw_o) != n + 1) {
        PyErr_SetString(PyExc_ValueError, "_forcing_kernel: cand needs one int per cell, cw one per digit 0..n");
        return NULL;
    }
    const int c = (int)(f >> 6), d = (int)((f >> 1) & 31);
    if (f < 0 || f > (long)size * 64 - 1 || d < 1 || d > n) {
        PyErr_SetString(PyExc_ValueError, "_forcing_kernel: fact out of range");
        return NULL;
    }
    P p;
    p.S = S; p.L = L; p.contra = NULL;
    memcpy(p.cand, S->base, sizeof p.cand);
    memcpy(p.cw, S->base_cw, sizeof p.cw);
    p.on = 0;
    p.qcap = size * (n + 2) + 1 + 8;
    p.queue = (int *)malloc(sizeof(int) * p.qcap);
    p.qlen = 0;
    p.parents = PyDict_New();
    PyObject *none = PyTuple_New(0);
    PyObject *cand = NULL, *cw = NULL, *out = NULL;
    if (!p.queue || !p.parents || !none) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    int r = (f & 1) ? set_on(&p, c, d, none) : set_off(&p, c, d, none);
    if (!r) r = run(&p, net, 0);
    for (int from = 0; !r && net && inter;) {
        const int k = p.qlen;
        r = locked(&p, from, k);
        if (r || p.qlen == k) break;
        from = k;
        r = run(&p, net, k);
    }
    if (r == ERR) goto done;
    cand = PyList_GetSlice(cand_o, 0, size);
    cw = cand ? PyList_GetSlice(cw_o, 0, n + 1) : NULL;
    if (!cw) goto done;
    for (int x = 0; x < size; x++)
        if (p.cand[x] != S->base[x]) {
            PyObject *v = PyLong_FromUnsignedLong(p.cand[x]);
            if (!v || PyList_SetItem(cand, x, v) < 0) goto done;
        }
    for (int e = 0; e <= n; e++)
        if (p.cw[e] != S->base_cw[e]) {
            PyObject *v = from_u128(p.cw[e]);
            if (!v || PyList_SetItem(cw, e, v) < 0) goto done;
        }
    PyObject *on = from_u128(p.on);
    if (!on) goto done;
    out = Py_BuildValue("(OONOO)", cand, cw, on, p.parents, p.contra ? p.contra : Py_None);
done:
    Py_XDECREF(cand);
    Py_XDECREF(cw);
    Py_XDECREF(p.parents);
    Py_XDECREF(p.contra);
    Py_XDECREF(none);
    free(p.queue);
    return out;
}

static PyMethodDef methods[] = {
    {"links", py_links, METH_VARARGS,
     "links(size, n, peers_d, full_masks, cell_houses, full_ids, locked_label)"},
    {"static", py_static, METH_VARARGS,
     "static(links, cand, cw, done, chain[, cross, binary, binary_t])"},
    {"propagate", py_propagate, METH_VARARGS,
     "propagate(static, cand, cw, on, parents, facts, net, inter[, queued]) -> (on, contra)"},
    {"assume", py_assume, METH_VARARGS,
     "assume(static, cand, cw, fact, net, inter) -> (cand, cw, on, parents, contra)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_forcing_kernel",
    "The propagation of techniques.forcing.engine in C (see techniques/_forcing_kernel.c).",
    -1, methods,
};

PyMODINIT_FUNC PyInit__forcing_kernel(void) {
    if (u128_init() < 0) return NULL;
    return PyModule_Create(&module);
}
