/* csp._engine_kernel: the loop of csp/engine.py's `Engine.propagate` in C, for untraced
 * runs (the SAT session's root propagation, the general depth-first search).
 *
 * The loop is the Python one step for step: the fixed cells' peers lose their digit (a LIFO
 * stack of cells), the dirty full houses (a LIFO stack) are scanned for hidden singles and
 * for a digit with no place, and the queued propagators (one LIFO queue per cost level,
 * cheapest level first) run; the same events wake the same watchers in the same order, so
 * the candidates, the order of the propagator calls and the first contradiction are the
 * same. The propagators stay Python objects: `prop.propagate(ctx)` is called with the
 * caller's `Context`, whose `changes` are read back after each call, as the Python loop
 * does. The candidates stay in the caller's list (read and written there: a propagator
 * reads the list).
 *
 * geo(size, n, peers, cell_full, full_cells)  the houses' tables (an engine's _Geometry):
 *     per cell its peers and its full houses, per full house its cells; n <= 62.
 * props(size, watch, prop_level, prop_cost, nlevels)  an engine's propagator tables: per
 *     cell its watchers (prop index, events), per propagator its level index (the position
 *     of its cost in the engine's sorted levels) and its cost.
 * propagate(geo, props, cand, changed, propagators, ctx, max_cost, houses_last, budget,
 *           subsumed, nofix)
 *     runs to fixpoint in place. Returns None, or for a contradiction the engine itself
 *     finds a tuple from which csp/engine.py raises the Python loop's Contradiction:
 *       (0, c)           cell c has no candidate (a cell of `changed`, or any at the start)
 *       (1, c, p, m)     peer p of the fixed cell c (mask m) has no candidate left
 *       (2, k, digit)    full house k (index into full_cells) has no place for digit
 *       (3, k, c)        cell c of full house k is the only place for two digits
 *     An exception a propagator or the budget's tick raises goes through unchanged (the
 *     candidates then partly propagated, as in Python).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

#define EV_DOM 1
#define EV_BOUNDS 2
#define EV_FIXED 4

typedef struct {
    Py_ssize_t size, nfull;
    int n;
    u64 all_mask;
    int *peer_start, *peer;      /* CSR: cell -> peers */
    int *cf_start, *cf;          /* CSR: cell -> full houses holding it */
    int *fc_start, *fc;          /* CSR: full house -> its cells */
} Geo;

/* a binary relation's mask tables (csp/constraints/binary.py `_unions`): per candidate
 * mask of a, the union of its digits' supports in b (uni_a); the same from b (uni_b); per
 * mask of a, the digits of b every digit of it allows (both_a) */
typedef struct {
    u64 len;                      /* 2 ** (n + 1) entries each */
    u64 *uni_a, *uni_b, *both_a;
} Table;

#define KIND_PY 0                 /* a Python propagator: prop.propagate(ctx) */
#define KIND_BT 1                 /* BinaryTable with mask tables */
#define KIND_OB 2                 /* OrderBoundsPropagator */
#define KIND_RUN 3                /* ConsecutiveSetPropagator (renban) */
#define KIND_SCAN 4               /* a line scanned by a compiled function (outside clues) */
#define KIND_EL 5                 /* ElementPropagator (indexers) */
#define KIND_ELH 6                /* ElementHousePropagator (an indexer's line a house) */
#define KIND_CT 7                 /* ContainsPropagator (quadruples) */

typedef struct {
    Py_ssize_t size, nprops;
    int nlevels;
    int *w_start, *w_prop, *w_ev; /* CSR: cell -> (prop, events) */
    int *level;                   /* per prop: its level index */
    long *cost;                   /* per prop: its cost */
    int *level_off;               /* per level: its queue's start in one buffer */
    int *kind;                    /* per prop: KIND_* */
    int *pa, *pb;                 /* BT: its cells a, b; OB: its cell (pa) */
    Table **tab;                  /* BT: its tables */
    int *g_start;                 /* OB: its groups g_start[i]..g_start[i + 1] */
    int *g_below;                 /* per group: 1 below the cell, 0 above */
    int *gc_start, *gc;           /* per group: its cells (CSR) */
    PyObject **fn, **fargs;       /* SCAN: the function and its arguments after the doms */
    int *pl_start;                /* CT: its placements pl_start[i]..pl_start[i + 1], each */
    u64 *pl;                      /* a digit bit per position of its cells (0: left free) */
    PyObject *keep;               /* the table capsules and functions the props point into */
} Props;

static void geo_free(PyObject *cap) {
    Geo *g = (Geo *)PyCapsule_GetPointer(cap, "csp._engine_kernel.geo");
    if (!g) return;
    free(g->peer_start); free(g->peer); free(g->cf_start); free(g->cf);
    free(g->fc_start); free(g->fc); free(g);
}

static void props_free(PyObject *cap) {
    Props *t = (Props *)PyCapsule_GetPointer(cap, "csp._engine_kernel.props");
    if (!t) return;
    free(t->w_start); free(t->w_prop); free(t->w_ev); free(t->level); free(t->cost);
    free(t->level_off); free(t->kind); free(t->pa); free(t->pb); free(t->tab);
    free(t->g_start); free(t->g_below); free(t->gc_start); free(t->gc);
    free(t->fn); free(t->fargs); free(t->pl_start); free(t->pl);
    Py_XDECREF(t->keep);
    free(t);
}

static void table_free(PyObject *cap) {
    Table *t = (Table *)PyCapsule_GetPointer(cap, "csp._engine_kernel.table");
    if (!t) return;
    free(t->uni_a); free(t->uni_b); free(t->both_a); free(t);
}

/* table(uni_a, uni_b, both_a, n): a relation's mask tables, for props() */
static PyObject *k_table(PyObject *self, PyObject *args) {
    PyObject *src[3];
    int n;
    if (!PyArg_ParseTuple(args, "OOOi", &src[0], &src[1], &src[2], &n)) return NULL;
    if (n < 1 || n > 16) {
        PyErr_SetString(PyExc_ValueError, "mask tables up to 16 digits");
        return NULL;
    }
    Table *t = (Table *)calloc(1, sizeof(Table));
    if (!t) return PyErr_NoMemory();
    t->len = (u64)1 << (n + 1);
    PyObject *cap = PyCapsule_New(t, "csp._engine_kernel.table", table_free);
    if (!cap) { free(t); return NULL; }
    u64 **dst[3] = {&t->uni_a, &t->uni_b, &t->both_a};
    for (int j = 0; j < 3; j++) {
        PyObject *fast = PySequence_Fast(src[j], "expected a sequence");
        if (!fast) { Py_DECREF(cap); return NULL; }
        if ((u64)PySequence_Fast_GET_SIZE(fast) != t->len) {
            Py_DECREF(fast); Py_DECREF(cap);
            PyErr_SetString(PyExc_ValueError, "mask table of the wrong length");
            return NULL;
        }
        *dst[j] = (u64 *)malloc(t->len * sizeof(u64));
        if (!*dst[j]) { Py_DECREF(fast); Py_DECREF(cap); return PyErr_NoMemory(); }
        for (u64 x = 0; x < t->len; x++) {
            u64 v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, (Py_ssize_t)x));
            if (v == (u64)-1 && PyErr_Occurred()) { Py_DECREF(fast); Py_DECREF(cap); return NULL; }
            (*dst[j])[x] = v;
        }
        Py_DECREF(fast);
    }
    return cap;
}

/* a list of `count` sequences of ints in [0, bound) as CSR arrays */
static int csr(PyObject *seq, Py_ssize_t count, Py_ssize_t bound, int **start, int **idx) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "table of the wrong length");
        return -1;
    }
    Py_ssize_t total = 0;
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_ssize_t k = PySequence_Size(items[i]);
        if (k < 0) { Py_DECREF(fast); return -1; }
        total += k;
    }
    *start = (int *)malloc((size_t)(count + 1) * sizeof(int));
    *idx = (int *)malloc((size_t)(total ? total : 1) * sizeof(int));
    if (!*start || !*idx) { Py_DECREF(fast); PyErr_NoMemory(); return -1; }
    Py_ssize_t pos = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        (*start)[i] = (int)pos;
        PyObject *row = PySequence_Fast(items[i], "expected a sequence");
        if (!row) { Py_DECREF(fast); return -1; }
        Py_ssize_t k = PySequence_Fast_GET_SIZE(row);
        for (Py_ssize_t j = 0; j < k; j++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, j));
            if (v == -1 && PyErr_Occurred()) { Py_DECREF(row); Py_DECREF(fast); return -1; }
            if (v < 0 || v >= bound) {
                Py_DECREF(row); Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError, "index out of range");
                return -1;
            }
            (*idx)[pos++] = (int)v;
        }
        Py_DECREF(row);
    }
    (*start)[count] = (int)pos;
    Py_DECREF(fast);
    return 0;
}

static PyObject *k_geo(PyObject *self, PyObject *args) {
    Py_ssize_t size;
    int n;
    PyObject *peers, *cell_full, *full_cells;
    if (!PyArg_ParseTuple(args, "niOOO", &size, &n, &peers, &cell_full, &full_cells))
        return NULL;
    if (n < 1 || n > 62 || size < 1 || size > (1 << 20)) {
        PyErr_SetString(PyExc_ValueError, "grid out of the kernel's range");
        return NULL;
    }
    Py_ssize_t nfull = PySequence_Size(full_cells);
    if (nfull < 0) return NULL;
    Geo *g = (Geo *)calloc(1, sizeof(Geo));
    if (!g) return PyErr_NoMemory();
    g->size = size; g->n = n; g->nfull = nfull;
    g->all_mask = (((u64)1 << n) - 1) << 1;
    PyObject *cap = PyCapsule_New(g, "csp._engine_kernel.geo", geo_free);
    if (!cap) { free(g); return NULL; }
    if (csr(peers, size, size, &g->peer_start, &g->peer) < 0
        || csr(cell_full, size, nfull ? nfull : 1, &g->cf_start, &g->cf) < 0
        || csr(full_cells, nfull, size, &g->fc_start, &g->fc) < 0) {
        Py_DECREF(cap);
        return NULL;
    }
    return cap;
}

/* the propagators the loop runs itself: `native` has per prop None (Python), or
 * (1, a, b, table) for a BinaryTable with mask tables (a capsule of table()), or
 * (2, cell, below, above) for an OrderBoundsPropagator (its groups: sequences of cells) */
/* A group's cells (a PySequence_Fast of ints) appended to t->gc as group *gi: its start in
 * t->gc_start, each cell checked against the grid's size. -1 with an exception set. */
static int read_group(Props *t, PyObject *g, Py_ssize_t size, Py_ssize_t *gi, Py_ssize_t *ci) {
    t->gc_start[*gi] = (int)*ci;
    for (Py_ssize_t x = 0; x < PySequence_Fast_GET_SIZE(g); x++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(g, x));
        if ((c == -1 && PyErr_Occurred()) || c < 0 || c >= size) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "cell out of range");
            return -1;
        }
        t->gc[(*ci)++] = (int)c;
    }
    (*gi)++;
    return 0;
}

static int native_specs(Props *t, PyObject *native) {
    Py_ssize_t np = t->nprops, size = t->size;
    PyObject *fast = PySequence_Fast(native, "expected a sequence");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != np) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "native table of the wrong length");
        return -1;
    }
    size_t m = (size_t)(np ? np : 1);
    t->kind = (int *)calloc(m, sizeof(int));
    t->pa = (int *)calloc(m, sizeof(int));
    t->pb = (int *)calloc(m, sizeof(int));
    t->tab = (Table **)calloc(m, sizeof(Table *));
    t->g_start = (int *)calloc(m + 1, sizeof(int));
    t->fn = (PyObject **)calloc(m, sizeof(PyObject *));
    t->fargs = (PyObject **)calloc(m, sizeof(PyObject *));
    t->pl_start = (int *)calloc(m + 1, sizeof(int));
    t->keep = PyList_New(0);
    if (!t->kind || !t->pa || !t->pb || !t->tab || !t->g_start || !t->fn || !t->fargs
        || !t->pl_start || !t->keep) {
        Py_DECREF(fast);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return -1;
    }
    /* count the groups and their cells first */
    Py_ssize_t ngroups = 0, ncells = 0, nplans = 0;
    for (Py_ssize_t i = 0; i < np; i++) {
        PyObject *spec = PySequence_Fast_GET_ITEM(fast, i);
        if (spec == Py_None) continue;
        if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != 4) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_TypeError, "a native spec is a 4-tuple");
            return -1;
        }
        long kind = PyLong_AsLong(PyTuple_GET_ITEM(spec, 0));
        if (kind >= 3 && kind <= 7) {
            Py_ssize_t k = PySequence_Size(PyTuple_GET_ITEM(spec, kind == 5 || kind == 6 ? 2 : 1));
            if (k < 0) { Py_DECREF(fast); return -1; }
            ngroups += 1;
            ncells += k;
            if (kind == 7) {
                Py_ssize_t np_ = PySequence_Size(PyTuple_GET_ITEM(spec, 2));
                if (np_ < 0) { Py_DECREF(fast); return -1; }
                nplans += np_ * k;
            }
        }
        if (kind == 2) {
            for (int side = 2; side <= 3; side++) {
                PyObject *gs = PyTuple_GET_ITEM(spec, side);
                Py_ssize_t k = PySequence_Size(gs);
                if (k < 0) { Py_DECREF(fast); return -1; }
                ngroups += k;
                for (Py_ssize_t j = 0; j < k; j++) {
                    PyObject *g = PySequence_GetItem(gs, j);
                    if (!g) { Py_DECREF(fast); return -1; }
                    Py_ssize_t gl = PySequence_Size(g);
                    Py_DECREF(g);
                    if (gl < 0) { Py_DECREF(fast); return -1; }
                    ncells += gl;
                }
            }
        }
    }
    t->g_below = (int *)calloc((size_t)(ngroups ? ngroups : 1), sizeof(int));
    t->gc_start = (int *)calloc((size_t)ngroups + 1, sizeof(int));
    t->gc = (int *)calloc((size_t)(ncells ? ncells : 1), sizeof(int));
    t->pl = (u64 *)calloc((size_t)(nplans ? nplans : 1), sizeof(u64));
    if (!t->g_below || !t->gc_start || !t->gc || !t->pl) {
        Py_DECREF(fast); PyErr_NoMemory(); return -1;
    }
    Py_ssize_t gi = 0, ci = 0, pi = 0;
    for (Py_ssize_t i = 0; i < np; i++) {
        t->g_start[i] = (int)gi;
        t->pl_start[i] = (int)pi;
        PyObject *spec = PySequence_Fast_GET_ITEM(fast, i);
        if (spec == Py_None) continue;
        long kind = PyLong_AsLong(PyTuple_GET_ITEM(spec, 0));
        if (kind == 7) {
            /* (7, cells, plans, None): plans a sequence of k-tuples of digit bits */
            PyObject *g = PySequence_Fast(PyTuple_GET_ITEM(spec, 1), "cells");
            if (!g) { Py_DECREF(fast); return -1; }
            Py_ssize_t k = PySequence_Fast_GET_SIZE(g);
            if (k < 1 || k > 62) {
                Py_DECREF(g); Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError, "bad quadruple");
                return -1;
            }
            if (read_group(t, g, size, &gi, &ci) < 0) { Py_DECREF(g); Py_DECREF(fast); return -1; }
            Py_DECREF(g);
            PyObject *plans = PySequence_Fast(PyTuple_GET_ITEM(spec, 2), "plans");
            if (!plans) { Py_DECREF(fast); return -1; }
            for (Py_ssize_t x = 0; x < PySequence_Fast_GET_SIZE(plans); x++) {
                PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(plans, x), "plan");
                if (!row) { Py_DECREF(plans); Py_DECREF(fast); return -1; }
                if (PySequence_Fast_GET_SIZE(row) != k) {
                    Py_DECREF(row); Py_DECREF(plans); Py_DECREF(fast);
                    PyErr_SetString(PyExc_ValueError, "a plan of the wrong length");
                    return -1;
                }
                for (Py_ssize_t j = 0; j < k; j++) {
                    u64 v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(row, j));
                    if (v == (u64)-1 && PyErr_Occurred()) {
                        Py_DECREF(row); Py_DECREF(plans); Py_DECREF(fast); return -1;
                    }
                    t->pl[pi++] = v;
                }
                Py_DECREF(row);
            }
            Py_DECREF(plans);
            t->kind[i] = KIND_CT;
            continue;
        }
        if (kind == 5 || kind == 6) {
            /* (5 or 6, index, line, target): an indexer */
            long idx = PyLong_AsLong(PyTuple_GET_ITEM(spec, 1));
            long target = PyLong_AsLong(PyTuple_GET_ITEM(spec, 3));
            PyObject *g = PySequence_Fast(PyTuple_GET_ITEM(spec, 2), "cells");
            if (!g) { Py_DECREF(fast); return -1; }
            Py_ssize_t k = PySequence_Fast_GET_SIZE(g);
            if (PyErr_Occurred() || idx < 0 || idx >= size || target < 1 || target > 62
                || k > 62) {
                Py_DECREF(g); Py_DECREF(fast);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad indexer");
                return -1;
            }
            if (read_group(t, g, size, &gi, &ci) < 0) { Py_DECREF(g); Py_DECREF(fast); return -1; }
            Py_DECREF(g);
            t->pa[i] = (int)idx;
            t->pb[i] = (int)target;
            t->kind[i] = kind == 5 ? KIND_EL : KIND_ELH;
            continue;
        }
        if (kind == 4) {
            /* (4, cells, fn, args): sup = fn(doms, *args), doms the cells' masks */
            PyObject *fn = PyTuple_GET_ITEM(spec, 2), *fa = PyTuple_GET_ITEM(spec, 3);
            PyObject *g = PySequence_Fast(PyTuple_GET_ITEM(spec, 1), "cells");
            if (!g) { Py_DECREF(fast); return -1; }
            Py_ssize_t k = PySequence_Fast_GET_SIZE(g);
            if (!PyCallable_Check(fn) || !PyTuple_Check(fa) || k < 1 || k > 62) {
                Py_DECREF(g); Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError, "bad scan");
                return -1;
            }
            if (read_group(t, g, size, &gi, &ci) < 0) { Py_DECREF(g); Py_DECREF(fast); return -1; }
            Py_DECREF(g);
            if (PyList_Append(t->keep, fn) < 0 || PyList_Append(t->keep, fa) < 0) {
                Py_DECREF(fast);
                return -1;
            }
            t->fn[i] = fn;
            t->fargs[i] = fa;
            t->kind[i] = KIND_SCAN;
            continue;
        }
        if (kind == 3) {
            /* (3, cells, n, None): the run's cells as one group */
            long nd = PyLong_AsLong(PyTuple_GET_ITEM(spec, 2));
            PyObject *g = PySequence_Fast(PyTuple_GET_ITEM(spec, 1), "cells");
            if (!g) { Py_DECREF(fast); return -1; }
            Py_ssize_t k = PySequence_Fast_GET_SIZE(g);
            if (PyErr_Occurred() || nd < 1 || nd > 62 || k < 1 || k > nd) {
                Py_DECREF(g); Py_DECREF(fast);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad run");
                return -1;
            }
            if (read_group(t, g, size, &gi, &ci) < 0) { Py_DECREF(g); Py_DECREF(fast); return -1; }
            Py_DECREF(g);
            t->pa[i] = (int)nd;
            t->kind[i] = KIND_RUN;
            continue;
        }
        long a = PyLong_AsLong(PyTuple_GET_ITEM(spec, 1));
        if (PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (a < 0 || a >= size) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "cell out of range");
            return -1;
        }
        t->pa[i] = (int)a;
        if (kind == 1) {
            long b = PyLong_AsLong(PyTuple_GET_ITEM(spec, 2));
            if (PyErr_Occurred()) { Py_DECREF(fast); return -1; }
            if (b < 0 || b >= size) {
                Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError, "cell out of range");
                return -1;
            }
            PyObject *tc = PyTuple_GET_ITEM(spec, 3);
            Table *tb = (Table *)PyCapsule_GetPointer(tc, "csp._engine_kernel.table");
            if (!tb || PyList_Append(t->keep, tc) < 0) { Py_DECREF(fast); return -1; }
            t->pb[i] = (int)b;
            t->tab[i] = tb;
            t->kind[i] = KIND_BT;
        } else if (kind == 2) {
            for (int side = 2; side <= 3; side++) {
                PyObject *gs = PySequence_Fast(PyTuple_GET_ITEM(spec, side), "groups");
                if (!gs) { Py_DECREF(fast); return -1; }
                for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(gs); j++) {
                    PyObject *g = PySequence_Fast(PySequence_Fast_GET_ITEM(gs, j), "group");
                    if (!g) { Py_DECREF(gs); Py_DECREF(fast); return -1; }
                    t->g_below[gi] = side == 2;
                    if (read_group(t, g, size, &gi, &ci) < 0) {
                        Py_DECREF(g); Py_DECREF(gs); Py_DECREF(fast);
                        return -1;
                    }
                    Py_DECREF(g);
                }
                Py_DECREF(gs);
            }
            t->kind[i] = KIND_OB;
        } else {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "unknown native kind");
            return -1;
        }
    }
    t->g_start[np] = (int)gi;
    t->pl_start[np] = (int)pi;
    t->gc_start[gi] = (int)ci;
    Py_DECREF(fast);
    return 0;
}

static PyObject *k_props(PyObject *self, PyObject *args) {
    Py_ssize_t size;
    PyObject *watch, *levels, *costs, *native;
    int nlevels;
    if (!PyArg_ParseTuple(args, "nOOOiO", &size, &watch, &levels, &costs, &nlevels, &native))
        return NULL;
    Py_ssize_t nprops = PySequence_Size(levels);
    if (nprops < 0) return NULL;
    if (PySequence_Size(costs) != nprops || nlevels < 1 || nprops > (1 << 28)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad propagator tables");
        return NULL;
    }
    Props *t = (Props *)calloc(1, sizeof(Props));
    if (!t) return PyErr_NoMemory();
    t->size = size; t->nprops = nprops; t->nlevels = nlevels;
    PyObject *cap = PyCapsule_New(t, "csp._engine_kernel.props", props_free);
    if (!cap) { free(t); return NULL; }
    t->level = (int *)malloc((size_t)(nprops ? nprops : 1) * sizeof(int));
    t->cost = (long *)malloc((size_t)(nprops ? nprops : 1) * sizeof(long));
    t->level_off = (int *)calloc((size_t)nlevels + 1, sizeof(int));
    if (!t->level || !t->cost || !t->level_off) { Py_DECREF(cap); return PyErr_NoMemory(); }
    for (Py_ssize_t i = 0; i < nprops; i++) {
        PyObject *o = PySequence_GetItem(levels, i);
        if (!o) { Py_DECREF(cap); return NULL; }
        long lv = PyLong_AsLong(o);
        Py_DECREF(o);
        o = PySequence_GetItem(costs, i);
        if (!o) { Py_DECREF(cap); return NULL; }
        long cs = PyLong_AsLong(o);
        Py_DECREF(o);
        if (PyErr_Occurred()) { Py_DECREF(cap); return NULL; }
        if (lv < 0 || lv >= nlevels) {
            PyErr_SetString(PyExc_ValueError, "level out of range");
            Py_DECREF(cap);
            return NULL;
        }
        t->level[i] = (int)lv;
        t->cost[i] = cs;
        t->level_off[lv + 1]++;
    }
    for (int l = 0; l < nlevels; l++) t->level_off[l + 1] += t->level_off[l];
    /* watch: per cell a sequence of (prop, events) pairs */
    PyObject *fast = PySequence_Fast(watch, "expected a sequence");
    if (!fast) { Py_DECREF(cap); return NULL; }
    if (PySequence_Fast_GET_SIZE(fast) != size) {
        Py_DECREF(fast); Py_DECREF(cap);
        PyErr_SetString(PyExc_ValueError, "watch table of the wrong length");
        return NULL;
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t c = 0; c < size; c++) {
        Py_ssize_t k = PySequence_Size(PySequence_Fast_GET_ITEM(fast, c));
        if (k < 0) { Py_DECREF(fast); Py_DECREF(cap); return NULL; }
        total += k;
    }
    t->w_start = (int *)malloc((size_t)(size + 1) * sizeof(int));
    t->w_prop = (int *)malloc((size_t)(total ? total : 1) * sizeof(int));
    t->w_ev = (int *)malloc((size_t)(total ? total : 1) * sizeof(int));
    if (!t->w_start || !t->w_prop || !t->w_ev) {
        Py_DECREF(fast); Py_DECREF(cap); return PyErr_NoMemory();
    }
    Py_ssize_t pos = 0;
    for (Py_ssize_t c = 0; c < size; c++) {
        t->w_start[c] = (int)pos;
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, c), "expected a sequence");
        if (!row) { Py_DECREF(fast); Py_DECREF(cap); return NULL; }
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(row); j++) {
            long i, ev;
            PyObject *pair = PySequence_Fast_GET_ITEM(row, j);
            if (PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2) {
                i = PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
                ev = PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
                if (PyErr_Occurred()) {
                    Py_DECREF(row); Py_DECREF(fast); Py_DECREF(cap); return NULL;
                }
            } else if (!PyArg_ParseTuple(pair, "ll", &i, &ev)) {
                Py_DECREF(row); Py_DECREF(fast); Py_DECREF(cap); return NULL;
            }
            if (i < 0 || i >= nprops) {
                Py_DECREF(row); Py_DECREF(fast); Py_DECREF(cap);
                PyErr_SetString(PyExc_ValueError, "watcher out of range");
                return NULL;
            }
            t->w_prop[pos] = (int)i;
            t->w_ev[pos] = (int)ev;
            pos++;
        }
        Py_DECREF(row);
    }
    t->w_start[size] = (int)pos;
    Py_DECREF(fast);
    if (native_specs(t, native) < 0) { Py_DECREF(cap); return NULL; }
    return cap;
}

/* -- the loop ---------------------------------------------------------------------------- */
typedef struct { int *a; Py_ssize_t len, cap; } Stack;

static int spush(Stack *s, int x) {
    if (s->len == s->cap) {
        Py_ssize_t cap = s->cap ? s->cap * 2 : 64;
        int *a = (int *)realloc(s->a, (size_t)cap * sizeof(int));
        if (!a) { PyErr_NoMemory(); return -1; }
        s->a = a; s->cap = cap;
    }
    s->a[s->len++] = x;
    return 0;
}

static inline int bitlen(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }

/* cand[i] as a mask (0..2^63), -1 with an exception when it is not one */
static inline int get_mask(PyObject *cand, Py_ssize_t i, u64 *out) {
    if (i >= PyList_GET_SIZE(cand)) {
        PyErr_SetString(PyExc_IndexError, "candidate list changed size");
        return -1;
    }
    u64 v = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(cand, i));
    if (v == (u64)-1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

static inline int set_mask(PyObject *cand, Py_ssize_t i, u64 v) {
    PyObject *o = PyLong_FromUnsignedLongLong(v);
    if (!o) return -1;
    return PyList_SetItem(cand, i, o);      /* steals o; i is in range (just read) */
}

/* a perfect matching of k cells (digit masks sub) onto k digits: Kuhn's augmenting paths */
static int augment(const u64 *sub, int j, u64 *seen, int *owner) {
    u64 m = sub[j] & ~*seen;
    while (m) {
        u64 low = m & (~m + 1);
        m ^= low;
        *seen |= low;
        int d = bitlen(low) - 1;
        if (owner[d] < 0 || augment(sub, owner[d], seen, owner)) {
            owner[d] = j;
            return 1;
        }
    }
    return 0;
}

static int perfect_matching(const u64 *sub, int k) {
    int owner[64];
    for (int d = 0; d < 64; d++) owner[d] = -1;
    for (int j = 0; j < k; j++) {
        u64 seen = 0;
        if (!augment(sub, j, &seen, owner)) return 0;
    }
    return 1;
}

static PyObject *S_propagate, *S_source, *S_name, *S_changes, *S_tick, *S_propagation;

static PyObject *k_propagate(PyObject *self, PyObject *args) {
    PyObject *geo_cap, *props_cap, *cand, *changed, *props, *ctx, *budget, *subsumed, *nofix;
    long max_cost;
    int houses_last;
    if (!PyArg_ParseTuple(args, "OOO!OO!OlpOOO", &geo_cap, &props_cap, &PyList_Type, &cand,
                          &changed, &PyList_Type, &props, &ctx, &max_cost, &houses_last,
                          &budget, &subsumed, &nofix))
        return NULL;
    Geo *G = (Geo *)PyCapsule_GetPointer(geo_cap, "csp._engine_kernel.geo");
    if (!G) return NULL;
    Props *T = (Props *)PyCapsule_GetPointer(props_cap, "csp._engine_kernel.props");
    if (!T) return NULL;
    Py_ssize_t size = G->size, nfull = G->nfull, nprops = T->nprops;
    if (T->size != size || PyList_GET_SIZE(cand) != size || PyList_GET_SIZE(props) != nprops) {
        PyErr_SetString(PyExc_ValueError, "tables, candidates and propagators do not match");
        return NULL;
    }
    const u64 all_mask = G->all_mask;
    const int *peer_start = G->peer_start, *peer = G->peer, *cf_start = G->cf_start,
              *cf = G->cf, *fc_start = G->fc_start, *fc = G->fc;
    const int *w_start = T->w_start, *w_prop = T->w_prop, *w_ev = T->w_ev,
              *level = T->level, *level_off = T->level_off;
    const long *cost = T->cost;
    const int nlevels = T->nlevels;

    PyObject *result = NULL;
    char *queued = (char *)calloc((size_t)(nprops ? nprops : 1), 1);
    int *qbuf = (int *)malloc((size_t)(nprops ? nprops : 1) * sizeof(int));
    Py_ssize_t *qlen = (Py_ssize_t *)calloc((size_t)nlevels, sizeof(Py_ssize_t));
    char *dflag = (char *)calloc((size_t)(nfull ? nfull : 1), 1);
    int *dirty = (int *)malloc((size_t)(nfull ? nfull : 1) * sizeof(int));
    Py_ssize_t ndirty = 0, nqueued = 0;
    Stack stack = {NULL, 0, 0};
    if (!queued || !qbuf || !qlen || !dflag || !dirty) { PyErr_NoMemory(); goto done; }

#define QUEUE(i) do { int q_ = (i); queued[q_] = 1; \
        qbuf[level_off[level[q_]] + qlen[level[q_]]++] = q_; nqueued++; } while (0)
#define DIRTY(c) do { for (int x_ = cf_start[c]; x_ < cf_start[(c) + 1]; x_++) { \
        int k_ = cf[x_]; if (!dflag[k_]) { dflag[k_] = 1; dirty[ndirty++] = k_; } } } while (0)

    PyObject *it = NULL;
    if (changed == Py_None) {
        for (Py_ssize_t k = 0; k < nfull; k++) { dirty[k] = (int)k; dflag[k] = 1; }
        ndirty = nfull;
        for (Py_ssize_t i = 0; i < nprops; i++)
            if (cost[i] <= max_cost) QUEUE((int)i);
    } else {
        it = PyObject_GetIter(changed);
        if (!it) goto done;
    }
    for (Py_ssize_t pos = 0;; pos++) {
        Py_ssize_t c;
        if (it) {
            PyObject *o = PyIter_Next(it);
            if (!o) { if (PyErr_Occurred()) { Py_DECREF(it); goto done; } break; }
            c = PyLong_AsSsize_t(o);
            Py_DECREF(o);
            if (c == -1 && PyErr_Occurred()) { Py_DECREF(it); goto done; }
            if (c < 0 || c >= size) {
                Py_DECREF(it);
                PyErr_SetString(PyExc_IndexError, "changed cell out of range");
                goto done;
            }
        } else {
            if (pos >= size) break;
            c = pos;
        }
        u64 m;
        if (get_mask(cand, c, &m) < 0) { Py_XDECREF(it); goto done; }
        if (!m) {
            Py_XDECREF(it);
            result = Py_BuildValue("(in)", 0, c);
            goto done;
        }
        if (!(m & (m - 1)) && spush(&stack, (int)c) < 0) { Py_XDECREF(it); goto done; }
        DIRTY(c);
        for (int x = w_start[c]; x < w_start[c + 1]; x++) {
            int i = w_prop[x];
            if (!queued[i] && cost[i] <= max_cost) QUEUE(i);
        }
    }
    Py_XDECREF(it);

    for (;;) {
        /* 1. value elimination from fixed cells */
        while (stack.len) {
            int c = stack.a[--stack.len];
            u64 m;
            if (get_mask(cand, c, &m) < 0) goto done;
            for (int x = peer_start[c]; x < peer_start[c + 1]; x++) {
                int p = peer[x];
                u64 pm;
                if (get_mask(cand, p, &pm) < 0) goto done;
                if (!(pm & m)) continue;
                pm ^= m;
                if (!pm) {
                    PyObject *mo = PyLong_FromUnsignedLongLong(m);
                    if (mo) result = Py_BuildValue("(iiiN)", 1, c, p, mo);
                    goto done;
                }
                if (set_mask(cand, p, pm) < 0) goto done;
                if (!(pm & (pm - 1)) && spush(&stack, p) < 0) goto done;
                DIRTY(p);
                if (w_start[p] < w_start[p + 1]) {
                    int ev = EV_DOM;
                    if (m > pm || m < (pm & (~pm + 1))) ev |= EV_BOUNDS;
                    if (!(pm & (pm - 1))) ev |= EV_FIXED;
                    for (int y = w_start[p]; y < w_start[p + 1]; y++) {
                        int i = w_prop[y];
                        if ((w_ev[y] & ev) && !queued[i] && cost[i] <= max_cost) QUEUE(i);
                    }
                }
            }
        }
        /* 2. hidden singles and pigeonhole on dirty full houses */
        if (ndirty && !(houses_last && nqueued)) {
            while (ndirty) {
                int k = dirty[--ndirty];
                dflag[k] = 0;
                u64 once = 0, twice = 0;
                for (int x = fc_start[k]; x < fc_start[k + 1]; x++) {
                    u64 m;
                    if (get_mask(cand, fc[x], &m) < 0) goto done;
                    twice |= once & m;
                    once |= m;
                }
                if (once != all_mask) {
                    result = Py_BuildValue("(iii)", 2, k, bitlen(all_mask & ~once) - 1);
                    goto done;
                }
                u64 single = once & ~twice;
                if (single) {
                    for (int x = fc_start[k]; x < fc_start[k + 1]; x++) {
                        int c = fc[x];
                        u64 m;
                        if (get_mask(cand, c, &m) < 0) goto done;
                        u64 h = m & single;
                        if (h && m != h) {
                            if (h & (h - 1)) {
                                result = Py_BuildValue("(iii)", 3, k, c);
                                goto done;
                            }
                            if (set_mask(cand, c, h) < 0) goto done;
                            if (spush(&stack, c) < 0) goto done;
                            DIRTY(c);
                            for (int y = w_start[c]; y < w_start[c + 1]; y++) {
                                int i = w_prop[y];
                                if (!queued[i] && cost[i] <= max_cost) QUEUE(i);
                            }
                        }
                    }
                }
                if (stack.len) break;
            }
            if (stack.len) continue;
        }
        /* 3. other propagators, cheapest first */
        int i = -1;
        for (int l = 0; l < nlevels; l++) {
            if (qlen[l]) {
                i = qbuf[level_off[l] + --qlen[l]];
                nqueued--;
                break;
            }
        }
        if (i < 0) { Py_INCREF(Py_None); result = Py_None; goto done; }
        if (budget != Py_None && T->kind[i] != KIND_PY) {
            PyObject *t = PyObject_CallMethodOneArg(budget, S_tick, S_propagation);
            if (!t) goto done;
            Py_DECREF(t);
        }
        /* the propagators run here: their removals as (cell, old mask), as ctx.remove
         * records them */
        int nat = 0, nch_nat = 0, quiet = 1;
        int chg_c[64];
        u64 chg_old[64];
        if (T->kind[i] == KIND_BT) {
            /* BinaryTable.propagate with mask tables */
            int a = T->pa[i], b = T->pb[i];
            const Table *tb = T->tab[i];
            u64 ma, mb;
            if (get_mask(cand, a, &ma) < 0 || get_mask(cand, b, &mb) < 0) goto done;
            if (ma < tb->len && mb < tb->len) {
                nat = 1;
                u64 drop = mb & ~tb->uni_a[ma];
                if (drop) {
                    u64 nb = mb & ~drop;
                    if (!nb) { result = Py_BuildValue("(iii)", 4, i, b); goto done; }
                    if (set_mask(cand, b, nb) < 0) goto done;
                    chg_c[nch_nat] = b; chg_old[nch_nat++] = mb;
                    mb = nb;
                }
                drop = ma & ~tb->uni_b[mb];
                if (drop) {
                    u64 na = ma & ~drop;
                    if (!na) { result = Py_BuildValue("(iii)", 4, i, a); goto done; }
                    if (set_mask(cand, a, na) < 0) goto done;
                    chg_c[nch_nat] = a; chg_old[nch_nat++] = ma;
                    ma = na;
                }
                /* FIX, or SUBSUMED once every digit of a goes with every digit of b */
                queued[i] = !(mb & ~tb->both_a[ma]);
            }
        } else if (T->kind[i] == KIND_OB) {
            /* OrderBoundsPropagator.propagate: above the k-th smallest of each group
             * below the cell, under the k-th largest of each group above it */
            nat = 1;
            int cell = T->pa[i];
            u64 m;
            if (get_mask(cand, cell, &m) < 0) goto done;
            u64 keep = m;
            for (int g = T->g_start[i]; g < T->g_start[i + 1]; g++) {
                u64 u = 0;
                int k = T->gc_start[g + 1] - T->gc_start[g];
                for (int x = T->gc_start[g]; x < T->gc_start[g + 1]; x++) {
                    u64 cm;
                    if (get_mask(cand, T->gc[x], &cm) < 0) goto done;
                    u |= cm;
                }
                int kth;
                if (T->g_below[g]) {
                    for (int j = 0; j < k - 1; j++) u &= u - 1;
                    kth = u ? bitlen(u & (~u + 1)) - 1 : 0;
                } else {
                    kth = -1;
                    for (int j = 0; j < k - 1; j++) {
                        if (!u) { kth = 0; break; }
                        u ^= (u64)1 << (bitlen(u) - 1);
                    }
                    if (kth < 0) kth = u ? bitlen(u) - 1 : 0;
                }
                if (!kth) {
                    result = Py_BuildValue("(iiii)", 5, i, T->g_below[g],
                                           g - T->g_start[i]);
                    goto done;
                }
                if (T->g_below[g]) keep &= ~(((u64)1 << (kth + 1)) - 1);
                else keep &= ((u64)1 << kth) - 1;
            }
            if (keep != m) {
                u64 nm = m & keep;
                if (!nm) { result = Py_BuildValue("(iii)", 4, i, cell); goto done; }
                if (set_mask(cand, cell, nm) < 0) goto done;
                chg_c[0] = cell; chg_old[0] = m; nch_nat = 1;
            }
            queued[i] = 0;                  /* FIX */
        }
        else if (T->kind[i] == KIND_RUN) {
            /* ConsecutiveSetPropagator.propagate: the digits of the windows of k
             * consecutive digits onto which the cells can be matched (fitting_runs) */
            int g = T->g_start[i], nd = T->pa[i];
            int k = T->gc_start[g + 1] - T->gc_start[g];
            const int *cells = T->gc + T->gc_start[g];
            if (k <= 62) {
                nat = 1;
                u64 doms[62], sup[62], sub[62];
                for (int j = 0; j < k; j++) {
                    if (get_mask(cand, cells[j], &doms[j]) < 0) goto done;
                    sup[j] = 0;
                }
                for (int st = 1; st <= nd - k + 1; st++) {
                    u64 w = (((u64)1 << k) - 1) << st, u = 0;
                    int hole = 0;
                    for (int j = 0; j < k; j++) {
                        sub[j] = doms[j] & w;
                        if (!sub[j]) { hole = 1; break; }
                        u |= sub[j];
                    }
                    if (hole || u != w || !perfect_matching(sub, k)) continue;
                    for (int j = 0; j < k; j++) sup[j] |= sub[j];
                }
                for (int j = 0; j < k; j++) {
                    if (!sup[j]) { result = Py_BuildValue("(ii)", 6, i); goto done; }
                    if (doms[j] & ~sup[j]) {
                        if (set_mask(cand, cells[j], doms[j] & sup[j]) < 0) goto done;
                        chg_c[nch_nat] = cells[j]; chg_old[nch_nat++] = doms[j];
                    }
                }
                queued[i] = 0;              /* FIX */
            }
        }
        else if (T->kind[i] == KIND_EL) {
            /* ElementPropagator.propagate: the index keeps the positions whose cell can
             * hold the target; a decided index puts the target in its cell (NOFIX) */
            nat = 1;
            quiet = 0;
            int g = T->g_start[i], idx = T->pa[i];
            int k = T->gc_start[g + 1] - T->gc_start[g];
            const int *cells = T->gc + T->gc_start[g];
            u64 t = (u64)1 << T->pb[i], keep = 0, m;
            if (get_mask(cand, idx, &m) < 0) goto done;
            u64 mi = m;
            while (m) {
                u64 low = m & (~m + 1);
                m ^= low;
                int v = bitlen(low) - 1;
                if (v >= 1 && v <= k) {
                    int c = cells[v - 1];
                    if (c == idx) {
                        if (v == T->pb[i]) keep |= low;
                    } else {
                        u64 cm;
                        if (get_mask(cand, c, &cm) < 0) goto done;
                        if (cm & t) keep |= low;
                    }
                }
            }
            if (!keep) { result = Py_BuildValue("(ii)", 8, i); goto done; }
            if (mi & ~keep) {
                if (set_mask(cand, idx, mi & keep) < 0) goto done;
                chg_c[nch_nat] = idx; chg_old[nch_nat++] = mi;
            }
            keep = mi & keep;
            if (!(keep & (keep - 1))) {
                int c = cells[bitlen(keep) - 2];
                u64 cm;
                if (get_mask(cand, c, &cm) < 0) goto done;
                if (cm & ~t) {
                    if (!(cm & t)) { result = Py_BuildValue("(iii)", 4, i, c); goto done; }
                    if (set_mask(cand, c, cm & t) < 0) goto done;
                    chg_c[nch_nat] = c; chg_old[nch_nat++] = cm;
                }
            }
            queued[i] = 0;                  /* NOFIX */
        }
        else if (T->kind[i] == KIND_ELH) {
            /* ElementHousePropagator.propagate: the cell at position q holds the target
             * only if the index can be q (FIX) */
            nat = 1;
            int g = T->g_start[i], idx = T->pa[i];
            int k = T->gc_start[g + 1] - T->gc_start[g];
            const int *cells = T->gc + T->gc_start[g];
            u64 t = (u64)1 << T->pb[i], m;
            if (get_mask(cand, idx, &m) < 0) goto done;
            for (int q = 1; q <= k; q++) {
                int c = cells[q - 1];
                if (c == idx) continue;
                u64 cm;
                if (get_mask(cand, c, &cm) < 0) goto done;
                if ((cm & t) && !((m >> q) & 1)) {
                    if (!(cm & ~t)) { result = Py_BuildValue("(iii)", 4, i, c); goto done; }
                    if (set_mask(cand, c, cm & ~t) < 0) goto done;
                    chg_c[nch_nat] = c; chg_old[nch_nat++] = cm;
                }
            }
            queued[i] = 0;                  /* FIX */
        }
        else if (T->kind[i] == KIND_CT) {
            /* ContainsPropagator.propagate: the digits of the placements the candidates
             * allow; a cell a placement leaves free keeps all its candidates (FIX) */
            nat = 1;
            int g = T->g_start[i];
            int k = T->gc_start[g + 1] - T->gc_start[g];
            const int *cells = T->gc + T->gc_start[g];
            u64 doms[62], sup[62];
            for (int j = 0; j < k; j++) {
                if (get_mask(cand, cells[j], &doms[j]) < 0) goto done;
                sup[j] = 0;
            }
            for (int x = T->pl_start[i]; x < T->pl_start[i + 1]; x += k) {
                const u64 *plan = T->pl + x;
                int ok = 1;
                for (int j = 0; j < k; j++)
                    if (plan[j] && !(doms[j] & plan[j])) { ok = 0; break; }
                if (!ok) continue;
                for (int j = 0; j < k; j++) {
                    if (plan[j]) sup[j] |= plan[j];
                    else sup[j] = doms[j];
                }
            }
            for (int j = 0; j < k; j++) {
                if (!sup[j]) { result = Py_BuildValue("(ii)", 9, i); goto done; }
                u64 m;
                if (get_mask(cand, cells[j], &m) < 0) goto done;
                if (m & ~sup[j]) {
                    if (!(m & sup[j])) { result = Py_BuildValue("(iii)", 4, i, cells[j]); goto done; }
                    if (set_mask(cand, cells[j], m & sup[j]) < 0) goto done;
                    if (nch_nat >= 64) { PyErr_SetString(PyExc_RuntimeError, "changes"); goto done; }
                    chg_c[nch_nat] = cells[j]; chg_old[nch_nat++] = m;
                }
            }
            queued[i] = 0;                  /* FIX */
        }
        else if (T->kind[i] == KIND_SCAN) {
            /* _LinePropagator.propagate (variants/outside.py) with its compiled scan: each
             * cell keeps its digits on some arrangement of the line; none: it fails */
            int g = T->g_start[i];
            int k = T->gc_start[g + 1] - T->gc_start[g];
            const int *cells = T->gc + T->gc_start[g];
            PyObject *fa = T->fargs[i];
            Py_ssize_t na = PyTuple_GET_SIZE(fa);
            PyObject *doms = PyList_New(k);
            if (!doms) goto done;
            for (int j = 0; j < k; j++) {
                PyObject *o = PyList_GET_ITEM(cand, cells[j]);
                Py_INCREF(o);
                PyList_SET_ITEM(doms, j, o);
            }
            PyObject *call = PyTuple_New(1 + na);
            if (!call) { Py_DECREF(doms); goto done; }
            PyTuple_SET_ITEM(call, 0, doms);
            for (Py_ssize_t x = 0; x < na; x++) {
                PyObject *o = PyTuple_GET_ITEM(fa, x);
                Py_INCREF(o);
                PyTuple_SET_ITEM(call, 1 + x, o);
            }
            PyObject *sup = PyObject_Call(T->fn[i], call, NULL);
            Py_DECREF(call);
            if (!sup) {
                /* a line the function declines: the propagator's own (Python) scan */
                if (!PyErr_ExceptionMatches(PyExc_ValueError)
                    && !PyErr_ExceptionMatches(PyExc_TypeError)
                    && !PyErr_ExceptionMatches(PyExc_OverflowError))
                    goto done;
                PyErr_Clear();
            } else if (sup == Py_None) {
                Py_DECREF(sup);
                result = Py_BuildValue("(ii)", 7, i);
                goto done;
            } else {
                PyObject *sf = PySequence_Fast(sup, "supports must be a sequence");
                Py_DECREF(sup);
                if (!sf) goto done;
                if (PySequence_Fast_GET_SIZE(sf) != k) {
                    Py_DECREF(sf);
                    PyErr_SetString(PyExc_ValueError, "supports of the wrong length");
                    goto done;
                }
                nat = 1;
                for (int j = 0; j < k; j++) {
                    u64 sj = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(sf, j));
                    if (sj == (u64)-1 && PyErr_Occurred()) { Py_DECREF(sf); goto done; }
                    u64 m;
                    if (get_mask(cand, cells[j], &m) < 0) { Py_DECREF(sf); goto done; }
                    if (m & ~sj) {
                        u64 nm = m & sj;
                        if (!nm) {
                            Py_DECREF(sf);
                            result = Py_BuildValue("(iii)", 4, i, cells[j]);
                            goto done;
                        }
                        if (set_mask(cand, cells[j], nm) < 0) { Py_DECREF(sf); goto done; }
                        chg_c[nch_nat] = cells[j]; chg_old[nch_nat++] = m;
                    }
                }
                Py_DECREF(sf);
                queued[i] = 0;              /* FIX */
            }
        }
        PyObject *fast = NULL;
        Py_ssize_t nch = nch_nat;
        if (!nat) {
            if (budget != Py_None && T->kind[i] == KIND_PY) {   /* (else ticked above) */
                PyObject *t = PyObject_CallMethodOneArg(budget, S_tick, S_propagation);
                if (!t) goto done;
                Py_DECREF(t);
            }
            PyObject *prop = PyList_GET_ITEM(props, i);
            PyObject *name = PyObject_GetAttr(prop, S_name);
            if (!name) goto done;
            int r = PyObject_SetAttr(ctx, S_source, name);
            Py_DECREF(name);
            if (r < 0) goto done;
            PyObject *status = PyObject_CallMethodOneArg(prop, S_propagate, ctx);
            if (!status) goto done;
            queued[i] = status == subsumed;
            quiet = status != nofix;
            Py_DECREF(status);
            PyObject *changes = PyObject_GetAttr(ctx, S_changes);
            if (!changes) goto done;
            int truth = PyObject_IsTrue(changes);
            if (truth < 0) { Py_DECREF(changes); goto done; }
            if (!truth) { Py_DECREF(changes); continue; }
            PyObject *fresh = PyList_New(0);
            if (!fresh || PyObject_SetAttr(ctx, S_changes, fresh) < 0) {
                Py_XDECREF(fresh); Py_DECREF(changes); goto done;
            }
            Py_DECREF(fresh);
            fast = PySequence_Fast(changes, "changes must be a sequence");
            Py_DECREF(changes);
            if (!fast) goto done;
            nch = PySequence_Fast_GET_SIZE(fast);
        }
        for (Py_ssize_t j = 0; j < nch; j++) {
            Py_ssize_t c;
            unsigned long long old;
            if (nat) {
                c = chg_c[j];
                old = chg_old[j];
            } else {
                PyObject *pair = PySequence_Fast_GET_ITEM(fast, j);
                if (PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2) {
                    c = PyLong_AsSsize_t(PyTuple_GET_ITEM(pair, 0));
                    old = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(pair, 1));
                } else if (!PyArg_ParseTuple(pair, "nK", &c, &old)) {
                    Py_DECREF(fast); goto done;
                }
                if (PyErr_Occurred()) { Py_DECREF(fast); goto done; }
                if (c < 0 || c >= size) {
                    Py_DECREF(fast);
                    PyErr_SetString(PyExc_IndexError, "changed cell out of range");
                    goto done;
                }
            }
            u64 pm;
            if (get_mask(cand, c, &pm) < 0) { Py_XDECREF(fast); goto done; }
            if (!(pm & (pm - 1)) && spush(&stack, (int)c) < 0) { Py_XDECREF(fast); goto done; }
            DIRTY(c);
            int ev = EV_DOM;
            if ((pm & (~pm + 1)) != (old & (~old + 1)) || bitlen(pm) != bitlen(old))
                ev |= EV_BOUNDS;
            if (!(pm & (pm - 1))) ev |= EV_FIXED;
            for (int y = w_start[c]; y < w_start[c + 1]; y++) {
                int q = w_prop[y];
                if ((w_ev[y] & ev) && !queued[q] && cost[q] <= max_cost) {
                    if (q == i && quiet) continue;
                    QUEUE(q);
                }
            }
        }
        Py_XDECREF(fast);
    }
#undef QUEUE
#undef DIRTY
done:
    free(queued); free(qbuf); free(qlen); free(dflag); free(dirty); free(stack.a);
    return result;
}

/* ---- order_specs: csp/constraints/order.py `_order_specs` in C -------------------------
 *
 * order_specs(less, ne, house_cells) -> the same tuple of (cell, below groups, above
 * groups, scope) as `_order_specs(less, ne, house_cells)`, or None when a cell is not a
 * small non-negative int (the caller then takes the Python loop). `less`: a dict cell ->
 * set of the cells known greater; `ne`: (a, b) pairs of cells that must differ;
 * `house_cells`: the cells of each all-different house. Every output is made of sets
 * (the closure, the groups) listed in ascending order, so any way of building the same
 * sets gives the same tuple: here the closure is Warshall's on cell bitsets, and a group is
 * a bitset grown as the Python `groups` grows it (each cell of the set outside the house,
 * ascending, joins when it differs from every cell of the group so far). */

#define OS_MAX_CELLS 4096

typedef struct { long *a; Py_ssize_t n, cap; } LVec;

static int lvec_push(LVec *v, long x) {
    if (v->n == v->cap) {
        Py_ssize_t cap = v->cap ? 2 * v->cap : 64;
        long *a = realloc(v->a, (size_t)cap * sizeof(long));
        if (!a) { PyErr_NoMemory(); return -1; }
        v->a = a; v->cap = cap;
    }
    v->a[v->n++] = x;
    return 0;
}

/* a cell from a Python object: 0, or 1 when it is not an int in range (the caller gives
 * up: None) */
static int os_cell(PyObject *o, long *out) {
    if (!PyLong_CheckExact(o)) return 1;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || v < 0 || v >= OS_MAX_CELLS) { PyErr_Clear(); return 1; }
    *out = v;
    return 0;
}

#define BIT(s, c) (((s)[(c) >> 6] >> ((c) & 63)) & 1)
#define SETBIT(s, c) ((s)[(c) >> 6] |= (u64)1 << ((c) & 63))

static int os_popcount2(const u64 *s, Py_ssize_t w) {   /* 0, 1 or 2 (at least two) */
    int k = 0;
    for (Py_ssize_t j = 0; j < w; j++) {
        if (!s[j]) continue;
        k += (s[j] & (s[j] - 1)) ? 2 : 1;
        if (k >= 2) return 2;
    }
    return k;
}

/* the groups of `cs` (see order.py `groups`) into out (room for nh bitsets); their count */
static Py_ssize_t os_groups(const u64 *cs, const u64 *H, Py_ssize_t nh, const u64 *mates,
                            Py_ssize_t w, u64 *out, u64 *grp) {
    Py_ssize_t ng = 0;
    if (os_popcount2(cs, w) < 2) return 0;
    for (Py_ssize_t i = 0; i < nh; i++) {
        const u64 *h = H + i * w;
        for (Py_ssize_t j = 0; j < w; j++) grp[j] = cs[j] & h[j];
        if (os_popcount2(grp, w) < 2) continue;
        for (Py_ssize_t j = 0; j < w; j++) {
            u64 rest = cs[j] & ~h[j];          /* cs - the house's part, ascending */
            while (rest) {
                long c = (long)(j * 64 + __builtin_ctzll(rest));
                rest &= rest - 1;
                const u64 *m = mates + (Py_ssize_t)c * w;
                int all = 1;
                for (Py_ssize_t k = 0; k < w; k++)
                    if (grp[k] & ~m[k]) { all = 0; break; }
                if (all) SETBIT(grp, c);
            }
        }
        int dup = 0;
        for (Py_ssize_t g = 0; g < ng && !dup; g++)
            dup = !memcmp(out + g * w, grp, (size_t)w * sizeof(u64));
        if (!dup) {
            memcpy(out + ng * w, grp, (size_t)w * sizeof(u64));
            ng++;
        }
    }
    return ng;
}

static PyObject *os_cells_tuple(const u64 *s, Py_ssize_t w) {
    Py_ssize_t k = 0;
    for (Py_ssize_t j = 0; j < w; j++) k += __builtin_popcountll(s[j]);
    PyObject *t = PyTuple_New(k);
    if (!t) return NULL;
    Py_ssize_t i = 0;
    for (Py_ssize_t j = 0; j < w; j++) {
        u64 b = s[j];
        while (b) {
            PyObject *v = PyLong_FromLong((long)(j * 64 + __builtin_ctzll(b)));
            if (!v) { Py_DECREF(t); return NULL; }
            PyTuple_SET_ITEM(t, i++, v);
            b &= b - 1;
        }
    }
    return t;
}

static PyObject *os_groups_tuple(const u64 *gs, Py_ssize_t ng, Py_ssize_t w) {
    PyObject *t = PyTuple_New(ng);
    if (!t) return NULL;
    for (Py_ssize_t g = 0; g < ng; g++) {
        PyObject *x = os_cells_tuple(gs + g * w, w);
        if (!x) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, g, x);
    }
    return t;
}

static PyObject *k_order_specs(PyObject *self, PyObject *args) {
    PyObject *less, *ne, *houses;
    if (!PyArg_ParseTuple(args, "O!OO", &PyDict_Type, &less, &ne, &houses)) return NULL;
    LVec lp = {0}, np = {0}, hc = {0}, hstart = {0};
    PyObject *result = NULL, *hs = NULL;
    u64 *mem = NULL;
    int *cells = NULL;
    long maxc = -1, v;
    /* the `<` pairs */
    Py_ssize_t pos = 0;
    PyObject *key, *val;
    while (PyDict_Next(less, &pos, &key, &val)) {
        long a;
        if (os_cell(key, &a)) goto giveup;
        PyObject *it = PyObject_GetIter(val);
        if (!it) goto done;
        PyObject *y;
        while ((y = PyIter_Next(it))) {
            long b;
            int bad = os_cell(y, &b);
            Py_DECREF(y);
            if (bad) { Py_DECREF(it); goto giveup; }
            if (lvec_push(&lp, a) < 0 || lvec_push(&lp, b) < 0) { Py_DECREF(it); goto done; }
            if (a > maxc) maxc = a;
            if (b > maxc) maxc = b;
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) goto done;
    }
    /* the != pairs */
    {
        PyObject *it = PyObject_GetIter(ne);
        if (!it) goto done;
        PyObject *pr;
        while ((pr = PyIter_Next(it))) {
            long a, b;
            if (!PyTuple_Check(pr) || PyTuple_GET_SIZE(pr) != 2
                    || os_cell(PyTuple_GET_ITEM(pr, 0), &a)
                    || os_cell(PyTuple_GET_ITEM(pr, 1), &b)) {
                Py_DECREF(pr); Py_DECREF(it); goto giveup;
            }
            Py_DECREF(pr);
            if (lvec_push(&np, a) < 0 || lvec_push(&np, b) < 0) { Py_DECREF(it); goto done; }
            if (a > maxc) maxc = a;
            if (b > maxc) maxc = b;
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) goto done;
    }
    /* the houses */
    hs = PySequence_Fast(houses, "house_cells must be a sequence");
    if (!hs) goto done;
    Py_ssize_t nh = PySequence_Fast_GET_SIZE(hs);
    for (Py_ssize_t i = 0; i < nh; i++) {
        if (lvec_push(&hstart, (long)hc.n) < 0) goto done;
        PyObject *hf = PySequence_Fast(PySequence_Fast_GET_ITEM(hs, i), "a house's cells");
        if (!hf) goto done;
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(hf); j++) {
            if (os_cell(PySequence_Fast_GET_ITEM(hf, j), &v)) { Py_DECREF(hf); goto giveup; }
            if (lvec_push(&hc, v) < 0) { Py_DECREF(hf); goto done; }
            if (v > maxc) maxc = v;
        }
        Py_DECREF(hf);
    }
    if (lvec_push(&hstart, (long)hc.n) < 0) goto done;
    if (!lp.n) { result = PyTuple_New(0); goto done; }
    {
        Py_ssize_t N = maxc + 1, w = (N + 63) / 64;
        /* above, below, mates per cell; the houses; the groups of one set; a group */
        size_t words = (size_t)(3 * N + nh + 2 * nh + 2) * (size_t)w;
        mem = calloc(words, sizeof(u64));
        cells = malloc((size_t)N * sizeof(int));
        char *in = calloc((size_t)N, 1);
        if (!mem || !cells || !in) { free(in); PyErr_NoMemory(); goto done; }
        u64 *above = mem, *below = above + N * w, *mates = below + N * w;
        u64 *H = mates + N * w, *gb = H + nh * w, *ga = gb + nh * w, *grp = ga + nh * w;
        for (Py_ssize_t k = 0; k < lp.n; k += 2) {
            SETBIT(above + lp.a[k] * w, lp.a[k + 1]);
            in[lp.a[k]] = in[lp.a[k + 1]] = 1;
        }
        Py_ssize_t nc = 0;
        for (Py_ssize_t c = 0; c < N; c++)
            if (in[c]) cells[nc++] = (int)c;
        /* Warshall: above[x] = the cells reachable from x through `less` */
        for (Py_ssize_t k = 0; k < nc; k++) {
            const u64 *ak = above + (Py_ssize_t)cells[k] * w;
            for (Py_ssize_t i = 0; i < nc; i++) {
                u64 *ai = above + (Py_ssize_t)cells[i] * w;
                if (BIT(ai, cells[k]))
                    for (Py_ssize_t j = 0; j < w; j++) ai[j] |= ak[j];
            }
        }
        for (Py_ssize_t i = 0; i < nc; i++) {      /* a cycle: a cell is not above itself */
            int x = cells[i];
            u64 *ax = above + (Py_ssize_t)x * w;
            ax[x >> 6] &= ~((u64)1 << (x & 63));
            for (Py_ssize_t j = 0; j < w; j++) {
                u64 b = ax[j];
                while (b) {
                    Py_ssize_t y = j * 64 + __builtin_ctzll(b);
                    b &= b - 1;
                    SETBIT(below + y * w, x);
                }
            }
        }
        for (Py_ssize_t i = 0; i < nh; i++) {
            u64 *h = H + i * w;
            for (long k = hstart.a[i]; k < hstart.a[i + 1]; k++) SETBIT(h, hc.a[k]);
            for (long k = hstart.a[i]; k < hstart.a[i + 1]; k++)
                if (in[hc.a[k]]) {
                    u64 *m = mates + hc.a[k] * w;
                    for (Py_ssize_t j = 0; j < w; j++) m[j] |= h[j];
                }
        }
        for (Py_ssize_t i = 0; i < nc; i++) {
            int x = cells[i];
            (mates + (Py_ssize_t)x * w)[x >> 6] &= ~((u64)1 << (x & 63));
        }
        for (Py_ssize_t k = 0; k < np.n; k += 2) {
            long a = np.a[k], b = np.a[k + 1];
            if (in[a]) SETBIT(mates + a * w, b);
            if (in[b]) SETBIT(mates + b * w, a);
        }
        free(in);
        PyObject *out = PyList_New(0);
        if (!out) goto done;
        for (Py_ssize_t i = 0; i < nc; i++) {
            int x = cells[i];
            Py_ssize_t nb = os_groups(below + (Py_ssize_t)x * w, H, nh, mates, w, gb, grp);
            Py_ssize_t na = os_groups(above + (Py_ssize_t)x * w, H, nh, mates, w, ga, grp);
            if (!nb && !na) continue;
            for (Py_ssize_t j = 0; j < w; j++) grp[j] = 0;
            SETBIT(grp, x);
            for (Py_ssize_t g = 0; g < nb; g++)
                for (Py_ssize_t j = 0; j < w; j++) grp[j] |= gb[g * w + j];
            for (Py_ssize_t g = 0; g < na; g++)
                for (Py_ssize_t j = 0; j < w; j++) grp[j] |= ga[g * w + j];
            PyObject *bt = os_groups_tuple(gb, nb, w), *at = os_groups_tuple(ga, na, w);
            PyObject *sc = os_cells_tuple(grp, w);
            PyObject *spec = (bt && at && sc) ? Py_BuildValue("(iOOO)", x, bt, at, sc) : NULL;
            Py_XDECREF(bt); Py_XDECREF(at); Py_XDECREF(sc);
            if (!spec || PyList_Append(out, spec) < 0) {
                Py_XDECREF(spec); Py_DECREF(out); goto done;
            }
            Py_DECREF(spec);
        }
        result = PyList_AsTuple(out);
        Py_DECREF(out);
    }
    goto done;
giveup:
    if (PyErr_Occurred()) goto done;
    result = Py_None;
    Py_INCREF(result);
done:
    free(lp.a); free(np.a); free(hc.a); free(hstart.a); free(mem); free(cells);
    Py_XDECREF(hs);
    return result;
}
#undef BIT
#undef SETBIT


static PyObject *S_scope, *S_events, *S_cost, *S_cells;

/* ---- watch: csp.engine.Engine's watch lists and costs ----------------------------------
 * watch(size, props) -> (watch, prop_cost): watch[c] the tuple of (i, int(props[i].events))
 * for each propagator i whose scope holds c, in the order of i (a scope listing c twice
 * gives two entries, as the Python loop does; a propagator's entries are one tuple); prop_cost[i] = int(props[i].cost). The
 * loop of Engine.__init__ in C (its reference and fallback). With rel_type, an entry of
 * exactly that type (a plain relation standing for its table propagator, csp.engine's
 * deferred entries) gives its cells as the scope, rel_cost and rel_events; with ord_cost,
 * a tuple (cell, below, above, scope), an ordering bound's spec, its scope, ord_cost and
 * rel_events. None when a scope names a
 * cell outside 0..size-1 or an attribute is not an int (the Python loop then raises as
 * before). */
/* An int attribute of a propagator as an exact int (a new reference in *out): 1, or 0
 * when it is not an int (the caller declines: the Python loop runs), -1 on an error. */
static int int_attr(PyObject *p, PyObject *name, PyObject **out) {
    PyObject *v = PyObject_GetAttr(p, name);
    if (!v) return -1;
    if (!PyLong_Check(v)) { Py_DECREF(v); return 0; }
    *out = PyNumber_Long(v);
    Py_DECREF(v);
    return *out ? 1 : -1;
}

static PyObject *k_watch(PyObject *self, PyObject *args) {
    Py_ssize_t size;
    PyObject *props, *result = NULL, *costs = NULL, *events = NULL;
    Py_ssize_t *cnt = NULL, *pos = NULL;
    PyObject **lists = NULL;
    (void)self;
    PyObject *rel_type = NULL, *rel_cost = NULL, *rel_events = NULL, *ord_cost = NULL;
    if (!PyArg_ParseTuple(args, "nO!|OOOO", &size, &PyList_Type, &props, &rel_type, &rel_cost,
                          &rel_events, &ord_cost)) return NULL;
    if (size < 0) Py_RETURN_NONE;
    if (rel_type && (!rel_cost || !rel_events || !PyLong_CheckExact(rel_cost)
                     || !PyLong_CheckExact(rel_events)))
        Py_RETURN_NONE;
    if (ord_cost && !PyLong_CheckExact(ord_cost)) Py_RETURN_NONE;
    Py_ssize_t np = PyList_GET_SIZE(props);
    PyObject *scopes = PyList_New(np);
    if (!scopes) return NULL;
    costs = PyList_New(np);
    events = PyList_New(np);
    cnt = (Py_ssize_t *)calloc((size_t)size + 1, sizeof(Py_ssize_t));
    pos = (Py_ssize_t *)calloc((size_t)size + 1, sizeof(Py_ssize_t));
    lists = (PyObject **)calloc((size_t)size + 1, sizeof(PyObject *));
    if (!costs || !events || !cnt || !pos || !lists) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < np; i++) {
        PyObject *p = PyList_GET_ITEM(props, i);
        /* an entry of exactly rel_type (a relation standing for its table propagator):
         * its cells, rel_cost and rel_events */
        int rel = rel_type && (PyObject *)Py_TYPE(p) == rel_type;
        /* a tuple (cell, below, above, scope) with ord_cost: an ordering bound's spec */
        int ord = !rel && ord_cost && PyTuple_CheckExact(p);
        if (ord && PyTuple_GET_SIZE(p) != 4) goto none;
        PyObject *sc = ord ? Py_NewRef(PyTuple_GET_ITEM(p, 3))
                           : PyObject_GetAttr(p, rel ? S_cells : S_scope);
        if (!sc) goto done;
        PyObject *seq = PySequence_Fast(sc, "scope");
        Py_DECREF(sc);
        if (!seq) goto done;
        PyList_SET_ITEM(scopes, i, seq);
        Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
        PyObject **items = PySequence_Fast_ITEMS(seq);
        for (Py_ssize_t j = 0; j < k; j++) {
            if (!PyLong_CheckExact(items[j])) goto none;
            Py_ssize_t c = PyLong_AsSsize_t(items[j]);
            if (c == -1 && PyErr_Occurred()) { PyErr_Clear(); goto none; }
            if (c < 0 || c >= size) goto none;
            cnt[c]++;
        }
        PyObject *evi, *coi;                      /* int(p.events), int(p.cost) */
        if (rel || ord) {
            Py_INCREF(rel_events); PyList_SET_ITEM(events, i, rel_events);
            PyObject *co = rel ? rel_cost : ord_cost;
            Py_INCREF(co); PyList_SET_ITEM(costs, i, co);
            continue;
        }
        int r = int_attr(p, S_events, &evi);
        if (r < 0) goto done;
        if (r == 0) goto none;
        PyList_SET_ITEM(events, i, evi);
        r = int_attr(p, S_cost, &coi);
        if (r < 0) goto done;
        if (r == 0) goto none;
        PyList_SET_ITEM(costs, i, coi);
    }
    for (Py_ssize_t c = 0; c < size; c++) {
        lists[c] = PyTuple_New(cnt[c]);
        if (!lists[c]) goto done;
    }
    for (Py_ssize_t i = 0; i < np; i++) {
        PyObject *seq = PyList_GET_ITEM(scopes, i);
        Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
        PyObject **items = PySequence_Fast_ITEMS(seq);
        if (!k) continue;
        /* one (i, events) tuple for all of the scope's cells (equal entries) */
        PyObject *ii = PyLong_FromSsize_t(i);
        if (!ii) goto done;
        PyObject *t = PyTuple_Pack(2, ii, PyList_GET_ITEM(events, i));
        Py_DECREF(ii);
        if (!t) goto done;
        for (Py_ssize_t j = 0; j < k; j++) {
            Py_ssize_t c = PyLong_AsSsize_t(items[j]);
            Py_INCREF(t);
            PyTuple_SET_ITEM(lists[c], pos[c]++, t);
        }
        Py_DECREF(t);
    }
    {
        PyObject *w = PyList_New(size);
        if (!w) goto done;
        for (Py_ssize_t c = 0; c < size; c++) { PyList_SET_ITEM(w, c, lists[c]); lists[c] = NULL; }
        result = PyTuple_Pack(2, w, costs);
        Py_DECREF(w);
    }
    goto done;
none:
    result = Py_None;
    Py_INCREF(result);
done:
    if (lists) for (Py_ssize_t c = 0; c < size; c++) Py_XDECREF(lists[c]);
    free(lists); free(cnt); free(pos);
    Py_DECREF(scopes); Py_XDECREF(costs); Py_XDECREF(events);
    return result;
}

/* ---- per_cell: a candidate count list read per cell ----------------------------------
 * per_cell(counts, n, size, cap) -> (seen, digits, capped): counts a list whose entry
 * c * n + d (c < size, 1 <= d <= n) counts the solutions holding digit d in cell c; per
 * cell, seen[c] the mask of the digits counted (bit d: a true entry), digits[c] the tuple
 * of those digits ascending, capped[c] the dict digit -> count if count < cap else cap
 * (csp.solutions._kernel_result's and sudoku_csp.workbench.candidates._per_cell's passes,
 * their reference); with cap None, seen alone (a list, not a tuple); with flat true,
 * capped is instead the flat list whose entry c * n + d - 1 is that count capped (0 for a
 * digit not counted: TrueCandidates' internal form, its dicts made only when read); None
 * when counts is shorter or n is out of 1..62. */
static PyObject *k_per_cell(PyObject *self, PyObject *args) {
    PyObject *counts, *cap, *seen = NULL, *digits = NULL, *capped = NULL, *result = NULL;
    Py_ssize_t n, size;
    int flat = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!nnO|p", &PyList_Type, &counts, &n, &size, &cap, &flat))
        return NULL;
    if (n < 1 || n > 62 || size < 0 || PyList_GET_SIZE(counts) < size * n + 1) Py_RETURN_NONE;
    seen = PyList_New(size);
    if (!seen) goto done;
    if (cap == Py_None) {              /* the masks alone */
        for (Py_ssize_t c = 0; c < size; c++) {
            unsigned long long m = 0;
            for (Py_ssize_t d = 1; d <= n; d++) {
                int t = PyObject_IsTrue(PyList_GET_ITEM(counts, c * n + d));
                if (t < 0) goto done;
                if (t) m |= 1ULL << d;
            }
            PyObject *mm = PyLong_FromUnsignedLongLong(m);
            if (!mm) goto done;
            PyList_SET_ITEM(seen, c, mm);
        }
        result = seen;
        seen = NULL;
        goto done;
    }
    digits = PyList_New(size);
    capped = PyList_New(flat ? size * n : size);
    if (!digits || !capped) goto done;
    PyObject *ds[64];
    for (Py_ssize_t c = 0; c < size; c++) {
        PyObject *dict = NULL;
        if (!flat) {
            dict = PyDict_New();
            if (!dict) goto done;
            PyList_SET_ITEM(capped, c, dict);
        }
        unsigned long long m = 0;
        int k = 0;
        for (Py_ssize_t d = 1; d <= n; d++) {
            PyObject *v = PyList_GET_ITEM(counts, c * n + d);
            int t = PyObject_IsTrue(v);
            if (t < 0) goto done;
            if (!t) {
                if (flat) { Py_INCREF(v); PyList_SET_ITEM(capped, c * n + d - 1, v); }
                continue;
            }
            m |= 1ULL << d;
            int lt = PyObject_RichCompareBool(v, cap, Py_LT);
            if (lt < 0) goto done;
            PyObject *key = PyLong_FromSsize_t(d);
            if (!key) goto done;
            if (flat) {
                PyObject *w = lt ? v : cap;
                Py_INCREF(w);
                PyList_SET_ITEM(capped, c * n + d - 1, w);
                ds[k++] = key;           /* owned: the tuple below takes it (a small int:
                                            an error below leaks nothing that matters) */
                continue;
            }
            if (PyDict_SetItem(dict, key, lt ? v : cap) < 0) { Py_DECREF(key); goto done; }
            ds[k++] = key;               /* the dict holds it: borrowed below */
            Py_DECREF(key);
        }
        PyObject *tup = PyTuple_New(k);
        if (!tup) {
            if (flat) for (int j = 0; j < k; j++) Py_DECREF(ds[j]);
            goto done;
        }
        for (int j = 0; j < k; j++) {
            if (!flat) Py_INCREF(ds[j]);
            PyTuple_SET_ITEM(tup, j, ds[j]);
        }
        PyList_SET_ITEM(digits, c, tup);
        PyObject *mm = PyLong_FromUnsignedLongLong(m);
        if (!mm) goto done;
        PyList_SET_ITEM(seen, c, mm);
    }
    result = PyTuple_Pack(3, seen, digits, capped);
done:
    Py_XDECREF(seen); Py_XDECREF(digits); Py_XDECREF(capped);
    return result;
}

static PyMethodDef methods[] = {
    {"geo", k_geo, METH_VARARGS, "geo(size, n, peers, cell_full, full_cells): house tables"},
    {"props", k_props, METH_VARARGS,
     "props(size, watch, prop_level, prop_cost, nlevels, native): propagator tables"},
    {"table", k_table, METH_VARARGS, "table(uni_a, uni_b, both_a, n): a relation's masks"},
    {"propagate", k_propagate, METH_VARARGS,
     "propagate(geo, props, cand, changed, propagators, ctx, max_cost, houses_last, budget, "
     "subsumed, nofix): Engine.propagate's loop, untraced"},
    {"order_specs", k_order_specs, METH_VARARGS,
     "order_specs(less, ne, house_cells): csp.constraints.order._order_specs, or None"},
    {"watch", k_watch, METH_VARARGS,
     "watch(size, props[, rel_type, rel_cost, rel_events, ord_cost]): Engine's watch lists "
     "and costs, or None (entries of exactly rel_type: their cells, rel_cost and rel_events; "
     "with ord_cost, a tuple (cell, below, above, scope): its scope, ord_cost, rel_events)"},
    {"per_cell", k_per_cell, METH_VARARGS,
     "per_cell(counts, n, size, cap, flat=False): per cell the digits counted (mask, tuple, "
     "capped dict; or the capped counts as one flat list)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_engine_kernel",
    "The loop of csp.engine.Engine.propagate, untraced, in C.", -1, methods};

PyMODINIT_FUNC PyInit__engine_kernel(void) {
    S_propagate = PyUnicode_InternFromString("propagate");
    S_source = PyUnicode_InternFromString("source");
    S_name = PyUnicode_InternFromString("name");
    S_changes = PyUnicode_InternFromString("changes");
    S_tick = PyUnicode_InternFromString("tick");
    S_propagation = PyUnicode_InternFromString("propagation");
    S_scope = PyUnicode_InternFromString("scope");
    S_events = PyUnicode_InternFromString("events");
    S_cost = PyUnicode_InternFromString("cost");
    S_cells = PyUnicode_InternFromString("cells");
    if (!S_propagate || !S_source || !S_name || !S_changes || !S_tick || !S_propagation
            || !S_scope || !S_events || !S_cost || !S_cells)
        return NULL;
    return PyModule_Create(&module);
}
