/* csp._auto_kernel: the clause writing of csp/sat.py's `_automaton` (an automaton read
 * along a rule's cells, as CNF) and of its `_projections`, in C; and of a compact
 * encoding's cells and houses (`_cells_and_houses`, `_house`: `cells`, `house` below).
 *
 * The Python code builds the layers (each state's next state by digit, numbered as first
 * reached) and the live states; `layers(...)` writes the same clauses, the same extra
 * clauses and the same new variables, in the same order, as the Python loops that follow
 * (the Python code stays the reference and the fallback: csp/kernel.py;
 * tests/csp/test_auto_kernel.py compares the two on random automata and candidates).
 *
 * Arguments (all checked before anything is written; ValueError or TypeError otherwise, and
 * the caller takes the Python path):
 *   clauses, extra  lists the clauses are appended to, or packed blocks (bytearrays) their
 *                   records are appended to (csp/_packed.h; every writer here takes either)
 *   doms            k tuples: the digits of each cell, rising, 1..n
 *   trans           k lists: per state of layer i (states after i cells; layer 0 is the
 *                   start alone), a list of the next state per digit of doms[i], an int id
 *                   of layer i + 1 or None
 *   live            k + 1 sets: the live state ids of each layer
 *   bases           k ints: each cell's id times n (a candidate's variable is base + digit)
 *   masks           k ints: each cell's candidate mask (for the projections)
 *   n, top          the digits (at most 62), the last variable used
 *   sup             write the layers' supports into extra (a compact encoding)
 *   project         write the projection clauses into extra (when their work, the states
 *                   of each layer times the cells after them, is at most work_limit)
 * Returns the last variable used.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_packed.h"

typedef long long ll;

/* a growable array of long long */
typedef struct { ll *a; Py_ssize_t len, cap; } Vec;

static int vpush(Vec *v, ll x) {
    if (v->len == v->cap) {
        Py_ssize_t cap = v->cap ? v->cap * 2 : 16;
        ll *a = (ll *)realloc(v->a, (size_t)cap * sizeof(ll));
        if (!a) { PyErr_NoMemory(); return -1; }
        v->a = a; v->cap = cap;
    }
    v->a[v->len++] = x;
    return 0;
}

/* the int objects of the literals written (a clause's literals are mostly the same few
 * hundred values: made once, shared, as the Python code's lists share its ints) */
typedef struct {
    ll lo, hi;             /* the literals' absolute values cached: lo..hi */
    PyObject **pos, **neg;
} Lits;

static Lits LC = {1, 0, NULL, NULL};   /* the current call's (the GIL is held throughout) */

static PyObject *lit(ll v) {
    ll a = v < 0 ? -v : v;
    if (a >= LC.lo && a <= LC.hi) {
        PyObject **slot = (v < 0 ? LC.neg : LC.pos) + (a - LC.lo);
        if (!*slot) {
            *slot = PyLong_FromLongLong(v);
            if (!*slot) return NULL;
        }
        Py_INCREF(*slot);
        return *slot;
    }
    return PyLong_FromLongLong(v);
}

static int lits_init(ll lo, ll hi) {
    LC.lo = lo; LC.hi = hi;
    size_t len = hi >= lo ? (size_t)(hi - lo + 1) : 0;
    LC.pos = calloc(len + 1, sizeof(PyObject *));
    LC.neg = calloc(len + 1, sizeof(PyObject *));
    if (!LC.pos || !LC.neg) { free(LC.pos); free(LC.neg); LC.pos = LC.neg = NULL; PyErr_NoMemory(); return -1; }
    return 0;
}

static void lits_free(void) {
    if (LC.pos) {
        size_t len = LC.hi >= LC.lo ? (size_t)(LC.hi - LC.lo + 1) : 0;
        for (size_t i = 0; i < len; i++) { Py_XDECREF(LC.pos[i]); Py_XDECREF(LC.neg[i]); }
    }
    free(LC.pos); free(LC.neg);
    LC.pos = LC.neg = NULL; LC.lo = 1; LC.hi = 0;
}

/* append a new list of the `len` values `xs` to `out` (a list), or their record to it (a
 * packed block, csp/_packed.h) */
/* layers(..., only_below=m > 0): the clauses holding a variable past m (a deferred
   encoding's states) are not written, the others are (set for that call only) */
static ll emit_below = 0;

static int emit(PyObject *out, const ll *xs, Py_ssize_t len) {
    if (emit_below > 0)
        for (Py_ssize_t i = 0; i < len; i++)
            if (xs[i] > emit_below || -xs[i] > emit_below) return 0;
    if (pk_is(out)) return pk_put(out, xs, len, 0);
    PyObject *l = PyList_New(len);
    if (!l) return -1;
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *v = lit(xs[i]);
        if (!v) { Py_DECREF(l); return -1; }
        PyList_SET_ITEM(l, i, v);
    }
    int r = PyList_Append(out, l);
    Py_DECREF(l);
    return r;
}

static int emit2(PyObject *out, ll a, ll b) { ll xs[2] = {a, b}; return emit(out, xs, 2); }
static int emit3(PyObject *out, ll a, ll b, ll c) { ll xs[3] = {a, b, c}; return emit(out, xs, 3); }

/* the whole state of one call, freed in one place */
typedef struct {
    Py_ssize_t k;
    int n;
    Py_ssize_t *nd;       /* digits per cell */
    int *dig;             /* the digits, flat: dig_off[i] + j */
    Py_ssize_t *dig_off;
    Py_ssize_t *ns;       /* states per layer 0..k */
    Py_ssize_t *tr_off;   /* trans flat: tr_off[i] + s * nd[i] + j, -1 for None */
    Py_ssize_t *tr;
    Py_ssize_t *lv_off;   /* live flags flat: lv_off[i] + s */
    unsigned char *lv;
    ll *bases;
    uint64_t *masks;
    /* per layer i (states after i + 1 cells), the states given a variable, in order, and
     * their variables (what the Python code's dicts `nxt` hold, in their order) */
    Py_ssize_t *ord_off;
    Py_ssize_t *ord;      /* state ids */
    ll *ordv;             /* their variables */
    Py_ssize_t *ord_len;
} Work;

static void work_free(Work *w) {
    free(w->nd); free(w->dig); free(w->dig_off); free(w->ns); free(w->tr_off); free(w->tr);
    free(w->lv_off); free(w->lv); free(w->bases); free(w->masks); free(w->ord_off);
    free(w->ord); free(w->ordv); free(w->ord_len);
}

static Py_ssize_t as_index(PyObject *o, Py_ssize_t hi) {
    /* an int in [0, hi), else -2 (with an exception set) */
    if (!PyLong_Check(o)) { PyErr_SetString(PyExc_TypeError, "state ids must be ints"); return -2; }
    Py_ssize_t v = PyLong_AsSsize_t(o);
    if (v == -1 && PyErr_Occurred()) return -2;
    if (v < 0 || v >= hi) { PyErr_SetString(PyExc_ValueError, "state id out of range"); return -2; }
    return v;
}

/* the layers forward() builds (the capsule `layers` takes for trans): per layer its
 * states, the transitions and the live flags, laid out as in Work */
typedef struct {
    Py_ssize_t k;
    Py_ssize_t *nd;       /* the digits of each cell it was built for */
    Py_ssize_t *ns, *tr_off, *tr, *lv_off;
    unsigned char *lv;
} Layers;

static const char *LAYERS = "csp._auto_kernel.layers";

static void layers_free(Layers *L) {
    if (!L) return;
    free(L->nd); free(L->ns); free(L->tr_off); free(L->tr); free(L->lv_off); free(L->lv);
    free(L);
}

static void layers_capsule_free(PyObject *cap) {
    layers_free((Layers *)PyCapsule_GetPointer(cap, LAYERS));
}

static void *copy_of(const void *a, size_t bytes) {
    void *b = malloc(bytes ? bytes : 1);
    if (b) memcpy(b, a, bytes);
    return b;
}

/* read and check every argument into w; -1 with an exception on anything unexpected.
 * trans is a list (with live a list of sets), or the capsule of forward() (live None) */
static int load(Work *w, PyObject *doms, PyObject *trans, PyObject *live, PyObject *bases,
                PyObject *masks, int n) {
    Layers *L = NULL;
    if (PyCapsule_CheckExact(trans)) {
        L = (Layers *)PyCapsule_GetPointer(trans, LAYERS);
        if (!L) return -1;
        if (live != Py_None) { PyErr_SetString(PyExc_TypeError, "live must be None with layers"); return -1; }
    } else if (!PyList_Check(trans) || !PyList_Check(live)) {
        PyErr_SetString(PyExc_TypeError, "doms, trans, live, bases and masks must be lists");
        return -1;
    }
    if (!PyList_Check(doms) || !PyList_Check(bases) || !PyList_Check(masks)) {
        PyErr_SetString(PyExc_TypeError, "doms, trans, live, bases and masks must be lists");
        return -1;
    }
    if (n < 1 || n > 62) { PyErr_SetString(PyExc_ValueError, "n must be 1..62"); return -1; }
    Py_ssize_t k = PyList_GET_SIZE(doms);
    w->k = k; w->n = n;
    if (k < 1 || (L ? L->k != k : PyList_GET_SIZE(trans) != k || PyList_GET_SIZE(live) != k + 1) ||
        PyList_GET_SIZE(bases) != k || PyList_GET_SIZE(masks) != k) {
        PyErr_SetString(PyExc_ValueError, "layers of different lengths");
        return -1;
    }
    w->nd = calloc((size_t)k, sizeof(Py_ssize_t));
    w->dig_off = calloc((size_t)k + 1, sizeof(Py_ssize_t));
    w->ns = calloc((size_t)k + 1, sizeof(Py_ssize_t));
    w->tr_off = calloc((size_t)k + 1, sizeof(Py_ssize_t));
    w->lv_off = calloc((size_t)k + 2, sizeof(Py_ssize_t));
    w->bases = calloc((size_t)k, sizeof(ll));
    w->masks = calloc((size_t)k, sizeof(uint64_t));
    w->ord_off = calloc((size_t)k + 1, sizeof(Py_ssize_t));
    w->ord_len = calloc((size_t)k, sizeof(Py_ssize_t));
    if (!w->nd || !w->dig_off || !w->ns || !w->tr_off || !w->lv_off || !w->bases ||
        !w->masks || !w->ord_off || !w->ord_len) { PyErr_NoMemory(); return -1; }
    /* digits, bases, masks */
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *d = PyList_GET_ITEM(doms, i);
        if (!PyTuple_Check(d)) { PyErr_SetString(PyExc_TypeError, "each dom must be a tuple"); return -1; }
        w->nd[i] = PyTuple_GET_SIZE(d);
        w->dig_off[i + 1] = w->dig_off[i] + w->nd[i];
        PyObject *b = PyList_GET_ITEM(bases, i), *m = PyList_GET_ITEM(masks, i);
        if (!PyLong_Check(b) || !PyLong_Check(m)) { PyErr_SetString(PyExc_TypeError, "bases and masks must be ints"); return -1; }
        w->bases[i] = PyLong_AsLongLong(b);
        if (w->bases[i] == -1 && PyErr_Occurred()) return -1;
        if (w->bases[i] < 0 || w->bases[i] > ((ll)1 << 40)) { PyErr_SetString(PyExc_ValueError, "base out of range"); return -1; }
        w->masks[i] = PyLong_AsUnsignedLongLong(m);
        if (w->masks[i] == (uint64_t)-1 && PyErr_Occurred()) return -1;
        if (w->masks[i] >> (n + 1)) { PyErr_SetString(PyExc_ValueError, "mask beyond n"); return -1; }
    }
    w->dig = calloc((size_t)w->dig_off[k] + 1, sizeof(int));
    if (!w->dig) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *d = PyList_GET_ITEM(doms, i);
        int prev = 0;
        for (Py_ssize_t j = 0; j < w->nd[i]; j++) {
            PyObject *x = PyTuple_GET_ITEM(d, j);
            if (!PyLong_Check(x)) { PyErr_SetString(PyExc_TypeError, "digits must be ints"); return -1; }
            long v = PyLong_AsLong(x);
            if (v == -1 && PyErr_Occurred()) return -1;
            if (v <= prev || v > n) { PyErr_SetString(PyExc_ValueError, "digits must rise within 1..n"); return -1; }
            w->dig[w->dig_off[i] + j] = (int)v;
            prev = (int)v;
        }
    }
    if (L) {                       /* forward()'s layers: as they are */
        for (Py_ssize_t i = 0; i < k; i++)
            if (L->nd[i] != w->nd[i]) {
                PyErr_SetString(PyExc_ValueError, "the layers were built for other digits");
                return -1;
            }
        memcpy(w->ns, L->ns, (size_t)(k + 1) * sizeof(Py_ssize_t));
        memcpy(w->tr_off, L->tr_off, (size_t)(k + 1) * sizeof(Py_ssize_t));
        memcpy(w->lv_off, L->lv_off, (size_t)(k + 2) * sizeof(Py_ssize_t));
        w->tr = copy_of(L->tr, ((size_t)L->tr_off[k]) * sizeof(Py_ssize_t));
        w->lv = copy_of(L->lv, (size_t)L->lv_off[k + 1]);
        if (!w->tr || !w->lv) { PyErr_NoMemory(); return -1; }
        goto order;
    }
    /* states per layer: layer 0 is the start alone; layer i + 1 holds the ids trans[i]
     * reaches (and trans[i + 1] lists each of them) */
    w->ns[0] = 1;
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *ti = PyList_GET_ITEM(trans, i);
        if (!PyList_Check(ti) || PyList_GET_SIZE(ti) != w->ns[i]) {
            PyErr_SetString(PyExc_ValueError, "a layer's transitions do not list its states");
            return -1;
        }
        w->tr_off[i] = total;
        if (w->nd[i] && w->ns[i] > (PY_SSIZE_T_MAX / 4 - total) / w->nd[i]) { PyErr_NoMemory(); return -1; }
        total += w->ns[i] * w->nd[i];
        Py_ssize_t top = -1;
        for (Py_ssize_t s = 0; s < w->ns[i]; s++) {
            PyObject *row = PyList_GET_ITEM(ti, s);
            if (!PyList_Check(row) || PyList_GET_SIZE(row) != w->nd[i]) {
                PyErr_SetString(PyExc_ValueError, "a state's transitions do not match its digits");
                return -1;
            }
            for (Py_ssize_t j = 0; j < w->nd[i]; j++) {
                PyObject *t = PyList_GET_ITEM(row, j);
                if (t == Py_None) continue;
                Py_ssize_t v = as_index(t, PY_SSIZE_T_MAX / 4);
                if (v == -2) return -1;
                if (v > top) top = v;
            }
        }
        w->ns[i + 1] = top + 1;
    }
    w->tr_off[k] = total;
    w->tr = malloc(((size_t)total + 1) * sizeof(Py_ssize_t));
    if (!w->tr) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *ti = PyList_GET_ITEM(trans, i);
        for (Py_ssize_t s = 0; s < w->ns[i]; s++) {
            PyObject *row = PyList_GET_ITEM(ti, s);
            for (Py_ssize_t j = 0; j < w->nd[i]; j++) {
                PyObject *t = PyList_GET_ITEM(row, j);
                w->tr[w->tr_off[i] + s * w->nd[i] + j] =
                    t == Py_None ? -1 : PyLong_AsSsize_t(t);
            }
        }
    }
    /* live flags (a live id beyond its layer's states is refused) */
    for (Py_ssize_t i = 0; i <= k; i++) w->lv_off[i + 1] = w->lv_off[i] + w->ns[i];
    w->lv = calloc((size_t)w->lv_off[k + 1] + 1, 1);
    if (!w->lv) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i <= k; i++) {
        PyObject *li = PyList_GET_ITEM(live, i);
        if (!PyAnySet_Check(li)) { PyErr_SetString(PyExc_TypeError, "live must be sets"); return -1; }
        PyObject *it = PyObject_GetIter(li);
        if (!it) return -1;
        PyObject *x;
        while ((x = PyIter_Next(it))) {
            Py_ssize_t v = as_index(x, w->ns[i]);
            Py_DECREF(x);
            if (v == -2) { Py_DECREF(it); return -1; }
            w->lv[w->lv_off[i] + v] = 1;
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) return -1;
    }
order:
    /* the variables' order per layer: at most its states */
    for (Py_ssize_t i = 0; i < k; i++) w->ord_off[i + 1] = w->ord_off[i] + w->ns[i + 1];
    w->ord = malloc(((size_t)w->ord_off[k] + 1) * sizeof(Py_ssize_t));
    w->ordv = malloc(((size_t)w->ord_off[k] + 1) * sizeof(ll));
    if (!w->ord || !w->ordv) { PyErr_NoMemory(); return -1; }
    return 0;
}

#define LIVE(w, i, t) ((t) >= 0 && (w)->lv[(w)->lv_off[i] + (t)])

/* the clauses of every layer (the loop of `_automaton` after the live states); -1 on error */
static int write_layers(Work *w, PyObject *clauses, PyObject *extra, ll *top_io, int sup) {
    Py_ssize_t k = w->k;
    int n = w->n;
    ll top = *top_io;
    Py_ssize_t maxs = 1;
    for (Py_ssize_t i = 0; i <= k; i++) if (w->ns[i] > maxs) maxs = w->ns[i];
    ll *var = calloc((size_t)maxs, sizeof(ll));          /* layer i + 1: state -> variable */
    ll *last = calloc((size_t)maxs, sizeof(ll));         /* the last state into it */
    uint64_t *into = calloc((size_t)maxs, sizeof(uint64_t));
    Py_ssize_t *pcount = calloc((size_t)maxs + 1, sizeof(Py_ssize_t));
    ll *buf = malloc(((size_t)maxs + 64) * sizeof(ll));
    ll *from = malloc(((size_t)(n + 1) * (size_t)(maxs + 1)) * sizeof(ll)); /* digit -> states */
    Py_ssize_t *flen = calloc((size_t)n + 1, sizeof(Py_ssize_t));
    Vec pairs = {0, 0, 0};                               /* (state, previous state's variable) */
    int rc = -1;
    if (!var || !last || !into || !pcount || !buf || !from || !flen) { PyErr_NoMemory(); goto out; }

    /* the first cell, from the start (true) */
    {
        ll base = w->bases[0];
        Py_ssize_t *ord = w->ord + w->ord_off[0];
        ll *ordv = w->ordv + w->ord_off[0];
        Py_ssize_t len = 0;
        Vec dead = {0, 0, 0};
        for (Py_ssize_t j = 0; j < w->nd[0]; j++) {
            int d = w->dig[w->dig_off[0] + j];
            Py_ssize_t t = w->tr[w->tr_off[0] + j];
            ll x = base + d;
            if (!LIVE(w, 1, t)) {
                ll xs[1] = {-x};
                if (emit(clauses, xs, 1) < 0 || vpush(&dead, x) < 0) { free(dead.a); goto out; }
                continue;
            }
            if (k == 1) continue;
            ll tv = var[t];
            if (!tv) {
                tv = var[t] = ++top;
                ord[len] = t; ordv[len] = tv; len++;
                into[t] = (uint64_t)1 << d;
            } else {
                into[t] |= (uint64_t)1 << d;
            }
            if (emit2(clauses, -x, tv) < 0) { free(dead.a); goto out; }
        }
        w->ord_len[0] = len;
        if (sup) {
            for (Py_ssize_t a = 0; a < len; a++) {
                Py_ssize_t t = ord[a], m = 0;
                buf[m++] = -ordv[a];
                for (int d = 1; d <= n; d++) if (into[t] >> d & 1) buf[m++] = base + d;
                if (emit(extra, buf, m) < 0) { free(dead.a); goto out; }
            }
            if (len) {
                for (Py_ssize_t a = 0; a < len; a++) buf[a] = ordv[a];
                if (emit(extra, buf, len) < 0) { free(dead.a); goto out; }
            }
            for (Py_ssize_t a = 0; a < dead.len; a++) {
                ll xs[1] = {-dead.a[a]};
                if (emit(extra, xs, 1) < 0) { free(dead.a); goto out; }
            }
        }
        free(dead.a);
        for (Py_ssize_t a = 0; a < len; a++) { var[ord[a]] = 0; into[ord[a]] = 0; }
    }

    for (Py_ssize_t i = 1; i < k; i++) {
        ll base = w->bases[i];
        const int *di = w->dig + w->dig_off[i];
        Py_ssize_t nd = w->nd[i];
        int end = i == k - 1;
        Py_ssize_t *pord = w->ord + w->ord_off[i - 1];
        ll *pordv = w->ordv + w->ord_off[i - 1];
        Py_ssize_t plen = w->ord_len[i - 1];
        Py_ssize_t *ord = w->ord + w->ord_off[i];
        ll *ordv = w->ordv + w->ord_off[i];
        Py_ssize_t len = 0;
        pairs.len = 0;
        for (int d = 0; d <= n; d++) flen[d] = 0;
        for (Py_ssize_t a = 0; a < plen; a++) {
            Py_ssize_t s = pord[a];
            ll sv = pordv[a];
            const Py_ssize_t *row = w->tr + w->tr_off[i] + s * nd;
            Py_ssize_t okn = 0;
            if (sup) buf[okn++] = -sv;
            for (Py_ssize_t j = 0; j < nd; j++) {
                int d = di[j];
                Py_ssize_t t = row[j];
                ll x = base + d;
                if (!LIVE(w, i + 1, t)) {
                    if (emit2(clauses, -sv, -x) < 0) goto out;
                    continue;
                }
                if (sup) {
                    buf[okn++] = x;
                    from[(Py_ssize_t)d * (maxs + 1) + flen[d]++] = sv;
                }
                if (end) continue;
                ll tv = var[t];
                if (!tv) {
                    tv = var[t] = ++top;
                    ord[len] = t; ordv[len] = tv; len++;
                    if (sup) {
                        into[t] = (uint64_t)1 << d;
                        last[t] = sv;
                        if (vpush(&pairs, t) < 0 || vpush(&pairs, sv) < 0) goto out;
                    }
                } else if (sup) {
                    if (last[t] != sv) {   /* a state's digits into t come one after another */
                        last[t] = sv;
                        if (vpush(&pairs, t) < 0 || vpush(&pairs, sv) < 0) goto out;
                    }
                    into[t] |= (uint64_t)1 << d;
                }
                if (emit3(clauses, -sv, -x, tv) < 0) goto out;
            }
            if (sup && emit(extra, buf, okn) < 0) goto out;
        }
        w->ord_len[i] = len;
        if (sup) {
            /* each state's states before it, in the order met: grouped from the pairs */
            for (Py_ssize_t a = 0; a < len; a++) pcount[ord[a]] = 0;
            Py_ssize_t np = pairs.len / 2;
            for (Py_ssize_t p = 0; p < np; p++) pcount[pairs.a[2 * p]]++;
            /* offsets into one buffer, states in their order */
            ll *grp = malloc(((size_t)np + 1) * sizeof(ll));
            Py_ssize_t *off = malloc(((size_t)maxs + 1) * sizeof(Py_ssize_t));
            if (!grp || !off) { free(grp); free(off); PyErr_NoMemory(); goto out; }
            Py_ssize_t acc = 0;
            for (Py_ssize_t a = 0; a < len; a++) { off[ord[a]] = acc; acc += pcount[ord[a]]; }
            for (Py_ssize_t a = 0; a < len; a++) pcount[ord[a]] = 0;
            for (Py_ssize_t p = 0; p < np; p++) {
                Py_ssize_t t = pairs.a[2 * p];
                grp[off[t] + pcount[t]++] = pairs.a[2 * p + 1];
            }
            for (Py_ssize_t a = 0; a < len && rc == -1; a++) {
                Py_ssize_t t = ord[a];
                Py_ssize_t m = 0;
                ll *cl = malloc(((size_t)pcount[t] + (size_t)n + 2) * sizeof(ll));
                if (!cl) { PyErr_NoMemory(); break; }
                cl[m++] = -ordv[a];
                for (Py_ssize_t q = 0; q < pcount[t]; q++) cl[m++] = grp[off[t] + q];
                int bad = emit(extra, cl, m) < 0;
                if (!bad) {
                    m = 0;
                    cl[m++] = -ordv[a];
                    for (int d = 1; d <= n; d++) if (into[t] >> d & 1) cl[m++] = base + d;
                    bad = emit(extra, cl, m) < 0;
                }
                free(cl);
                if (bad) break;
            }
            free(grp); free(off);
            if (PyErr_Occurred()) goto out;
            if (len) {
                for (Py_ssize_t a = 0; a < len; a++) buf[a] = ordv[a];
                if (emit(extra, buf, len) < 0) goto out;
            }
            for (Py_ssize_t j = 0; j < nd; j++) {
                int d = di[j];
                ll *cl = malloc(((size_t)flen[d] + 1) * sizeof(ll));
                if (!cl) { PyErr_NoMemory(); goto out; }
                cl[0] = -(base + d);
                for (Py_ssize_t q = 0; q < flen[d]; q++) cl[q + 1] = from[(Py_ssize_t)d * (maxs + 1) + q];
                int bad = emit(extra, cl, flen[d] + 1) < 0;
                free(cl);
                if (bad) goto out;
            }
        }
        for (Py_ssize_t a = 0; a < len; a++) { var[ord[a]] = 0; into[ord[a]] = 0; last[ord[a]] = 0; }
    }
    rc = 0;
out:
    *top_io = top;
    free(var); free(last); free(into); free(pcount); free(buf); free(from); free(flen);
    free(pairs.a);
    return rc;
}

/* the projection clauses (`_projections`): per state after i cells, the digits of each
 * later cell on some path from it to an accepted end; every other candidate of those cells
 * a binary clause */
static int write_projections(Work *w, PyObject *extra) {
    Py_ssize_t k = w->k;
    /* suf: per state of layer i + 1, a mask per cell (the cells after i); layer k: the live
     * states, nothing after them */
    Py_ssize_t maxs = 1;
    for (Py_ssize_t i = 0; i <= k; i++) if (w->ns[i] > maxs) maxs = w->ns[i];
    uint64_t *suf = calloc((size_t)maxs * (size_t)k, sizeof(uint64_t));
    unsigned char *has = calloc((size_t)maxs, 1);
    uint64_t *cur = calloc((size_t)maxs * (size_t)k, sizeof(uint64_t));
    unsigned char *chas = calloc((size_t)maxs, 1);
    int rc = -1;
    if (!suf || !has || !cur || !chas) { PyErr_NoMemory(); goto out; }
    for (Py_ssize_t t = 0; t < w->ns[k]; t++) has[t] = w->lv[w->lv_off[k] + t];
    for (Py_ssize_t i = k - 1; i >= 1; i--) {
        const Py_ssize_t *ord = w->ord + w->ord_off[i - 1];
        const ll *ordv = w->ordv + w->ord_off[i - 1];
        Py_ssize_t len = w->ord_len[i - 1];
        Py_ssize_t nd = w->nd[i];
        const int *di = w->dig + w->dig_off[i];
        memset(chas, 0, (size_t)w->ns[i]);
        for (Py_ssize_t a = 0; a < len; a++) {
            Py_ssize_t s = ord[a];
            uint64_t *m = cur + s * k;
            for (Py_ssize_t j = i; j < k; j++) m[j] = 0;
            const Py_ssize_t *row = w->tr + w->tr_off[i] + s * nd;
            for (Py_ssize_t j = 0; j < nd; j++) {
                Py_ssize_t t = row[j];
                if (t < 0 || !has[t]) continue;
                const uint64_t *after = suf + t * k;
                for (Py_ssize_t c = i + 1; c < k; c++) m[c] |= after[c];
                m[i] |= (uint64_t)1 << di[j];
            }
            chas[s] = 1;
        }
        /* suf <- cur for this layer's states */
        memset(has, 0, (size_t)maxs);
        for (Py_ssize_t a = 0; a < len; a++) {
            Py_ssize_t s = ord[a];
            memcpy(suf + s * k, cur + s * k, (size_t)k * sizeof(uint64_t));
            has[s] = 1;
        }
        for (Py_ssize_t a = 0; a < len; a++) {
            Py_ssize_t s = ord[a];
            ll tv = ordv[a];
            const uint64_t *m = suf + s * k;
            for (Py_ssize_t c = i; c < k; c++) {
                uint64_t o = w->masks[c] & ~m[c];
                while (o) {
                    int d = __builtin_ctzll(o);
                    o &= o - 1;
                    if (emit2(extra, -tv, -(w->bases[c] + d)) < 0) goto out;
                }
            }
        }
    }
    rc = 0;
out:
    free(suf); free(has); free(cur); free(chas);
    return rc;
}

static PyObject *layers(PyObject *self, PyObject *args) {
    PyObject *clauses, *extra, *doms, *trans, *live, *bases, *masks;
    int n, sup, project;
    long long top, work_limit, only_below = 0;
    if (!PyArg_ParseTuple(args, "OOOOOOOiLppL|L", &clauses, &extra,
                          &doms, &trans, &live, &bases, &masks, &n, &top, &sup, &project,
                          &work_limit, &only_below))
        return NULL;
    if (pk_target(clauses, "clauses") < 0 || pk_target(extra, "extra") < 0) return NULL;
    Work w;
    memset(&w, 0, sizeof w);
    if (load(&w, doms, trans, live, bases, masks, n) < 0) { work_free(&w); return NULL; }
    /* the literals cached: the line's candidates and the new variables (at most one a
     * state), when they are near enough to one another */
    ll lo = w.bases[0], hi = w.bases[0] + n, states = 0;
    for (Py_ssize_t i = 0; i < w.k; i++) {
        if (w.bases[i] < lo) lo = w.bases[i];
        if (w.bases[i] + n > hi) hi = w.bases[i] + n;
    }
    for (Py_ssize_t i = 1; i <= w.k; i++) states += w.ns[i];
    if (top + states > hi) hi = top + states;
    if (hi - lo > 4 * (states + (ll)w.k * n) + 4096) hi = lo + (ll)w.k * n + 4096;   /* far apart: the candidates' end only */
    if (lits_init(lo + 1 > 1 ? lo + 1 : 1, hi) < 0) { work_free(&w); return NULL; }
    emit_below = only_below > 0 ? only_below : 0;
    int bad = write_layers(&w, clauses, extra, &top, sup) < 0;
    if (!bad && project) {
        long long work = 0;
        for (Py_ssize_t i = 1; i < w.k; i++) work += (long long)w.ord_len[i - 1] * (w.k - i);
        if (work <= work_limit) bad = write_projections(&w, extra) < 0;
    }
    emit_below = 0;
    lits_free();
    work_free(&w);
    if (bad) return NULL;
    return PyLong_FromLongLong(top);
}

/* forward(native, doms, limit): the layers of an automaton the kernel steps itself, as
 * `_automaton` builds them from the rule's `step` (csp/sat.py): layer 0 is the start
 * alone; the states after each cell are numbered in the order first reached (the states
 * before it in their order, each with the cell's digits rising), a digit into no state
 * (`step` None) is -1; the states of the last layer the rule accepts are live, and a state
 * before is live when a digit leads it to a live one. `native` (Automaton.native):
 *   ("skyscraper", seen)  state (tallest so far, buildings seen), start (0, 0): a digit
 *                         not above the tallest leaves it as it is; one above it is seen,
 *                         None past `seen`; accepted with `seen` seen
 * None when the layers hold more than `limit` states in all (counted as `_automaton`
 * counts them: every state reached, live or not); else (layers, start live): layers the
 * capsule `layers` takes for `trans` (with `live` None). */
static PyObject *forward(PyObject *self, PyObject *args) {
    PyObject *native, *doms;
    long long limit;
    if (!PyArg_ParseTuple(args, "O!O!L", &PyTuple_Type, &native, &PyList_Type, &doms, &limit))
        return NULL;
    const char *kind = NULL;
    long seen = -1;
    if (PyTuple_GET_SIZE(native) == 2 && PyUnicode_Check(PyTuple_GET_ITEM(native, 0)))
        kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(native, 0));
    if (!kind || strcmp(kind, "skyscraper") != 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "unknown native automaton");
        return NULL;
    }
    seen = PyLong_AsLong(PyTuple_GET_ITEM(native, 1));
    if (seen == -1 && PyErr_Occurred()) return NULL;
    if (seen < 0 || seen > 64) { PyErr_SetString(PyExc_ValueError, "seen out of range"); return NULL; }
    Py_ssize_t k = PyList_GET_SIZE(doms);
    Layers *L = calloc(1, sizeof(Layers));
    int *dig = NULL, maxd = 0;
    Py_ssize_t *dig_off = NULL, *key = NULL, *nkey = NULL, *idmap = NULL;
    Vec tr = {0, 0, 0};
    PyObject *out = NULL;
    if (!L) return PyErr_NoMemory();
    L->k = k;
    L->nd = calloc((size_t)k + 1, sizeof(Py_ssize_t));
    L->ns = calloc((size_t)k + 1, sizeof(Py_ssize_t));
    L->tr_off = calloc((size_t)k + 1, sizeof(Py_ssize_t));
    L->lv_off = calloc((size_t)k + 2, sizeof(Py_ssize_t));
    dig_off = calloc((size_t)k + 1, sizeof(Py_ssize_t));
    if (!L->nd || !L->ns || !L->tr_off || !L->lv_off || !dig_off) { PyErr_NoMemory(); goto fail; }
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *d = PyList_GET_ITEM(doms, i);
        if (!PyTuple_Check(d)) { PyErr_SetString(PyExc_TypeError, "each dom must be a tuple"); goto fail; }
        L->nd[i] = PyTuple_GET_SIZE(d);
        dig_off[i + 1] = dig_off[i] + L->nd[i];
    }
    dig = malloc(((size_t)dig_off[k] + 1) * sizeof(int));
    if (!dig) { PyErr_NoMemory(); goto fail; }
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *d = PyList_GET_ITEM(doms, i);
        int prev = 0;
        for (Py_ssize_t j = 0; j < L->nd[i]; j++) {
            long v = PyLong_AsLong(PyTuple_GET_ITEM(d, j));
            if (v == -1 && PyErr_Occurred()) goto fail;
            if (v <= prev || v > 62) { PyErr_SetString(PyExc_ValueError, "digits must rise within 1..62"); goto fail; }
            dig[dig_off[i] + j] = (int)v;
            prev = (int)v;
            if (v > maxd) maxd = (int)v;
        }
    }
    {
        /* a state (top, count) is the key top * (seen + 1) + count */
        Py_ssize_t width = seen + 1, nkeys = (Py_ssize_t)(maxd + 1) * width;
        Py_ssize_t ncur = 1, count = 0;
        key = malloc((size_t)nkeys * sizeof(Py_ssize_t));     /* this layer's states */
        nkey = malloc((size_t)nkeys * sizeof(Py_ssize_t));    /* the next layer's */
        idmap = malloc((size_t)nkeys * sizeof(Py_ssize_t));   /* key -> id in the next */
        if (!key || !nkey || !idmap) { PyErr_NoMemory(); goto fail; }
        for (Py_ssize_t x = 0; x < nkeys; x++) idmap[x] = -1;
        key[0] = 0;
        L->ns[0] = 1;
        for (Py_ssize_t i = 0; i < k; i++) {
            const int *di = dig + dig_off[i];
            Py_ssize_t nd = L->nd[i], nn = 0;
            L->tr_off[i] = tr.len;
            for (Py_ssize_t a = 0; a < ncur; a++) {
                Py_ssize_t top = key[a] / width, cnt = key[a] % width;
                for (Py_ssize_t j = 0; j < nd; j++) {
                    Py_ssize_t t;
                    if (di[j] <= top) t = key[a];
                    else if (cnt < seen) t = (Py_ssize_t)di[j] * width + cnt + 1;
                    else { if (vpush(&tr, -1) < 0) goto fail; continue; }
                    if (idmap[t] < 0) { idmap[t] = nn; nkey[nn++] = t; }
                    if (vpush(&tr, idmap[t]) < 0) goto fail;
                }
            }
            for (Py_ssize_t a = 0; a < nn; a++) idmap[nkey[a]] = -1;
            count += nn;
            if (count > limit) { layers_free(L); L = NULL; out = Py_None; Py_INCREF(out); goto done; }
            L->ns[i + 1] = nn;
            Py_ssize_t *sw = key; key = nkey; nkey = sw;
            ncur = nn;
        }
        L->tr_off[k] = tr.len;
        L->tr = malloc(((size_t)tr.len + 1) * sizeof(Py_ssize_t));
        for (Py_ssize_t i = 0; i <= k; i++) L->lv_off[i + 1] = L->lv_off[i] + L->ns[i];
        L->lv = calloc((size_t)L->lv_off[k + 1] + 1, 1);
        if (!L->tr || !L->lv) { PyErr_NoMemory(); goto fail; }
        for (Py_ssize_t x = 0; x < tr.len; x++) L->tr[x] = (Py_ssize_t)tr.a[x];
        for (Py_ssize_t a = 0; a < ncur; a++)   /* the last layer: accepted */
            L->lv[L->lv_off[k] + a] = key[a] % width == seen;
        for (Py_ssize_t i = k - 1; i >= 0; i--) {
            const Py_ssize_t *row = L->tr + L->tr_off[i];
            const unsigned char *after = L->lv + L->lv_off[i + 1];
            for (Py_ssize_t a = 0; a < L->ns[i]; a++) {
                unsigned char live = 0;
                for (Py_ssize_t j = 0; j < L->nd[i] && !live; j++) {
                    Py_ssize_t t = row[a * L->nd[i] + j];
                    live = t >= 0 && after[t];
                }
                L->lv[L->lv_off[i] + a] = live;
            }
        }
        int start = L->lv[0];
        PyObject *cap = PyCapsule_New(L, LAYERS, layers_capsule_free);
        if (!cap) goto fail;
        L = NULL;
        out = Py_BuildValue("(NO)", cap, start ? Py_True : Py_False);
    }
done:
    free(dig); free(dig_off); free(key); free(nkey); free(idmap); free(tr.a);
    return out;
fail:
    layers_free(L);
    free(dig); free(dig_off); free(key); free(nkey); free(idmap); free(tr.a);
    return NULL;
}

/* the clauses of the cells (exactly one candidate: the list of a cell's literals, and the
 * tuple of them when it has two or more: "at most one" kept compact) and of a house (per
 * digit the tuple of the cells' literals holding it when two or more do, and the list of
 * them when the house has n cells), as csp/sat.py's `_cells_and_houses` and `_house` write
 * them in a compact encoding of at most 62 digits: a cell's literals are made once, shared
 * by its list and its tuple */
static PyObject *digit_lits(long long base, uint64_t m, int n) {
    Py_ssize_t len = 0;
    for (int d = 1; d <= n; d++) len += (Py_ssize_t)(m >> d & 1);
    PyObject *l = PyList_New(len);
    if (!l) return NULL;
    Py_ssize_t i = 0;
    for (int d = 1; d <= n; d++) {
        if (!(m >> d & 1)) continue;
        PyObject *v = PyLong_FromLongLong(base + d);
        if (!v) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, i++, v);
    }
    return l;
}

static int read_mask(PyObject *o, int n, uint64_t *out) {
    if (!PyLong_Check(o)) { PyErr_SetString(PyExc_TypeError, "candidate masks must be ints"); return -1; }
    *out = PyLong_AsUnsignedLongLong(o);
    if (*out == (uint64_t)-1 && PyErr_Occurred()) return -1;
    if (*out >> (n + 1)) { PyErr_SetString(PyExc_ValueError, "a mask beyond n"); return -1; }
    return 0;
}

static PyObject *cells(PyObject *self, PyObject *args) {
    PyObject *clauses, *cand;
    int n;
    if (!PyArg_ParseTuple(args, "OO!i", &clauses, &PyList_Type, &cand, &n))
        return NULL;
    if (pk_target(clauses, "clauses") < 0) return NULL;
    if (n < 1 || n > 62) { PyErr_SetString(PyExc_ValueError, "n must be 1..62"); return NULL; }
    Py_ssize_t size = PyList_GET_SIZE(cand);
    uint64_t *ms = malloc(((size_t)size + 1) * sizeof(uint64_t));
    if (!ms) return PyErr_NoMemory();
    for (Py_ssize_t c = 0; c < size; c++)
        if (read_mask(PyList_GET_ITEM(cand, c), n, &ms[c]) < 0) { free(ms); return NULL; }
    if (pk_is(clauses)) {                      /* the same records, packed */
        ll xs[64];
        for (Py_ssize_t c = 0; c < size; c++) {
            Py_ssize_t len = 0;
            for (int d = 1; d <= n; d++) if (ms[c] >> d & 1) xs[len++] = (ll)c * n + d;
            if (pk_put(clauses, xs, len, 0) < 0 || (len > 1 && pk_put(clauses, xs, len, 1) < 0)) {
                free(ms);
                return NULL;
            }
        }
        free(ms);
        Py_RETURN_NONE;
    }
    for (Py_ssize_t c = 0; c < size; c++) {
        PyObject *l = digit_lits((long long)c * n, ms[c], n);
        if (!l) { free(ms); return NULL; }
        int bad = PyList_Append(clauses, l) < 0;
        if (!bad && PyList_GET_SIZE(l) > 1) {
            PyObject *t = PyList_AsTuple(l);
            bad = !t || PyList_Append(clauses, t) < 0;
            Py_XDECREF(t);
        }
        Py_DECREF(l);
        if (bad) { free(ms); return NULL; }
    }
    free(ms);
    Py_RETURN_NONE;
}

static PyObject *house_one(PyObject *clauses, PyObject *cand, PyObject *cellseq, int n);

static PyObject *house(PyObject *self, PyObject *args) {
    PyObject *clauses, *cand, *cellseq;
    int n;
    if (!PyArg_ParseTuple(args, "OO!Oi", &clauses, &PyList_Type, &cand,
                          &cellseq, &n))
        return NULL;
    if (pk_target(clauses, "clauses") < 0) return NULL;
    if (n < 1 || n > 62) { PyErr_SetString(PyExc_ValueError, "n must be 1..62"); return NULL; }
    return house_one(clauses, cand, cellseq, n);
}

/* houses(clauses, cand, houses, n): `house` of each cell list of `houses` in turn (a run
 * of a puzzle's all-different rules in one call: the same clauses in the same order) */
static PyObject *houses(PyObject *self, PyObject *args) {
    PyObject *clauses, *cand, *hs;
    int n;
    if (!PyArg_ParseTuple(args, "OO!O!i", &clauses, &PyList_Type, &cand, &PyList_Type, &hs, &n))
        return NULL;
    if (pk_target(clauses, "clauses") < 0) return NULL;
    if (n < 1 || n > 62) { PyErr_SetString(PyExc_ValueError, "n must be 1..62"); return NULL; }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hs); i++) {
        PyObject *r = house_one(clauses, cand, PyList_GET_ITEM(hs, i), n);
        if (!r) return NULL;
        Py_DECREF(r);
    }
    Py_RETURN_NONE;
}

static PyObject *house_one(PyObject *clauses, PyObject *cand, PyObject *cellseq, int n) {
    PyObject *seq = PySequence_Fast(cellseq, "cells must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq), size = PyList_GET_SIZE(cand);
    Py_ssize_t *cs = malloc(((size_t)k + 1) * sizeof(Py_ssize_t));
    if (!cs) { Py_DECREF(seq); return PyErr_NoMemory(); }
    /* the cells, sorted, each once (sorted(set(cells))) */
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
        Py_ssize_t c = PyLong_Check(o) ? PyLong_AsSsize_t(o) : -1;
        if (c < 0 || c >= size) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a cell outside the grid");
            free(cs); Py_DECREF(seq); return NULL;
        }
        Py_ssize_t j = i;
        while (j > 0 && cs[j - 1] > c) { cs[j] = cs[j - 1]; j--; }
        cs[j] = c;
    }
    Py_ssize_t m = 0;
    for (Py_ssize_t i = 0; i < k; i++)
        if (m == 0 || cs[m - 1] != cs[i]) cs[m++] = cs[i];
    Py_DECREF(seq);
    uint64_t *ms = malloc(((size_t)m + 1) * sizeof(uint64_t));
    if (pk_is(clauses)) {                      /* the same records, packed */
        ll *xs = malloc(((size_t)m + 1) * sizeof(ll));
        int bad = !ms || !xs;
        if (bad) PyErr_NoMemory();
        for (Py_ssize_t i = 0; i < m && !bad; i++)
            bad = read_mask(PyList_GET_ITEM(cand, cs[i]), n, &ms[i]) < 0;
        for (int d = 1; d <= n && !bad; d++) {
            Py_ssize_t len = 0;
            for (Py_ssize_t i = 0; i < m; i++) if (ms[i] >> d & 1) xs[len++] = (ll)cs[i] * n + d;
            if (len > 1) bad = pk_put(clauses, xs, len, 1) < 0;
            if (m == n && !bad) bad = pk_put(clauses, xs, len, 0) < 0;
        }
        free(xs); free(cs); free(ms);
        if (bad) return NULL;
        Py_RETURN_NONE;
    }
    PyObject **lits = calloc(((size_t)m + 1) * ((size_t)n + 1), sizeof(PyObject *));
    Py_ssize_t *cnt = calloc((size_t)n + 1, sizeof(Py_ssize_t));
    int bad = !ms || !lits || !cnt;
    if (bad) PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < m && !bad; i++)
        bad = read_mask(PyList_GET_ITEM(cand, cs[i]), n, &ms[i]) < 0;
    /* per digit, its cells' literals in the cells' order */
    for (Py_ssize_t i = 0; i < m && !bad; i++)
        for (int d = 1; d <= n && !bad; d++)
            if (ms[i] >> d & 1) {
                PyObject *v = PyLong_FromLongLong((long long)cs[i] * n + d);
                if (!v) { bad = 1; break; }
                lits[(Py_ssize_t)d * (m + 1) + cnt[d]++] = v;
            }
    int full = m == n;
    for (int d = 1; d <= n && !bad; d++) {
        PyObject **row = lits + (Py_ssize_t)d * (m + 1);
        Py_ssize_t len = cnt[d];
        if (len > 1) {
            PyObject *t = PyTuple_New(len);
            if (!t) { bad = 1; break; }
            for (Py_ssize_t i = 0; i < len; i++) { Py_INCREF(row[i]); PyTuple_SET_ITEM(t, i, row[i]); }
            bad = PyList_Append(clauses, t) < 0;
            Py_DECREF(t);
        }
        if (full && !bad) {
            PyObject *l = PyList_New(len);
            if (!l) { bad = 1; break; }
            for (Py_ssize_t i = 0; i < len; i++) { Py_INCREF(row[i]); PyList_SET_ITEM(l, i, row[i]); }
            bad = PyList_Append(clauses, l) < 0;
            Py_DECREF(l);
        }
    }
    if (lits)
        for (Py_ssize_t i = 0; i < (m + 1) * ((Py_ssize_t)n + 1); i++) Py_XDECREF(lits[i]);
    free(cs); free(ms); free(lits); free(cnt);
    if (bad) return NULL;
    Py_RETURN_NONE;
}

/* consecutive(clauses, masks, bases, n, top) -> top: a renban's clauses, as csp/sat.py's
 * `_consecutive` writes them, in the same order: the windows of len(masks) consecutive
 * digits the cells' digits cover, a selector each (top + 1, ...); "some window" and each
 * pair "not both"; per cell and digit, the digit needs a chosen window holding it; per
 * window, each of its digits in some cell and each cell on one of its digits; the digits
 * of every window placed. `masks`: the cells' candidate masks, `bases`: each cell's id
 * times n (a candidate's variable is base + digit) */
static PyObject *consecutive(PyObject *self, PyObject *args) {
    PyObject *clauses, *mlist, *blist;
    int n;
    long long top;
    if (!PyArg_ParseTuple(args, "OO!O!iL", &clauses, &PyList_Type, &mlist,
                          &PyList_Type, &blist, &n, &top))
        return NULL;
    if (pk_target(clauses, "clauses") < 0) return NULL;
    if (n < 1 || n > 62) { PyErr_SetString(PyExc_ValueError, "n must be 1..62"); return NULL; }
    Py_ssize_t k = PyList_GET_SIZE(mlist);
    if (k < 1 || k > n || PyList_GET_SIZE(blist) != k) {
        PyErr_SetString(PyExc_ValueError, "masks and bases: one per cell, 1..n cells");
        return NULL;
    }
    if (top < 0 || top > ((ll)1 << 40)) { PyErr_SetString(PyExc_ValueError, "top out of range"); return NULL; }
    uint64_t ms[64], uni = 0, run = ((uint64_t)1 << k) - 1;
    ll bs[64], lo = 0, hi = 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        if (read_mask(PyList_GET_ITEM(mlist, i), n, &ms[i]) < 0) return NULL;
        PyObject *b = PyList_GET_ITEM(blist, i);
        if (!PyLong_Check(b)) { PyErr_SetString(PyExc_TypeError, "bases must be ints"); return NULL; }
        bs[i] = PyLong_AsLongLong(b);
        if (bs[i] == -1 && PyErr_Occurred()) return NULL;
        if (bs[i] < 0 || bs[i] > ((ll)1 << 40)) { PyErr_SetString(PyExc_ValueError, "base out of range"); return NULL; }
        uni |= ms[i];
        if (i == 0 || bs[i] < lo) lo = bs[i];
        if (i == 0 || bs[i] + n > hi) hi = bs[i] + n;
    }
    int starts[64], nw = 0;
    for (int st = 1; st <= n - (int)k + 1; st++)
        if ((uni >> st & run) == run) starts[nw++] = st;
    ll first = top + 1;
    top += nw;
    if (top > hi) hi = top;
    if (hi - lo > 100000) hi = lo + 100000;     /* far apart: the cells' candidates only */
    if (lits_init(lo + 1, hi) < 0) return NULL;
    ll buf[128] = {0};
    int bad = 0;
    Py_ssize_t m = 0;
    for (int a = 0; a < nw; a++) buf[m++] = first + a;               /* some window */
    bad = emit(clauses, buf, m) < 0;
    for (int a = 0; a < nw && !bad; a++)                             /* at most one */
        for (int b = a + 1; b < nw && !bad; b++)
            bad = emit2(clauses, -(first + a), -(first + b)) < 0;
    /* the windows holding each digit: starts[j..e) with start <= d < start + k */
    for (Py_ssize_t i = 0; i < k && !bad; i++) {                     /* a digit: its windows */
        for (int d = 1; d <= n && !bad; d++) {
            if (!(ms[i] >> d & 1)) continue;
            m = 0;
            buf[m++] = -(bs[i] + d);
            for (int a = 0; a < nw; a++)
                if (starts[a] <= d && d < starts[a] + (int)k) buf[m++] = first + a;
            bad = emit(clauses, buf, m) < 0;
        }
    }
    for (int a = 0; a < nw && !bad; a++) {
        int st = starts[a];
        for (int d = st; d < st + (int)k && !bad; d++) {            /* each digit somewhere */
            m = 0;
            buf[m++] = -(first + a);
            for (Py_ssize_t i = 0; i < k; i++) if (ms[i] >> d & 1) buf[m++] = bs[i] + d;
            bad = emit(clauses, buf, m) < 0;
        }
        uint64_t w = run << st;
        for (Py_ssize_t i = 0; i < k && !bad; i++) {                 /* each cell in it */
            m = 0;
            buf[m++] = -(first + a);
            for (int d = 1; d <= n; d++) if ((ms[i] & w) >> d & 1) buf[m++] = bs[i] + d;
            bad = emit(clauses, buf, m) < 0;
        }
    }
    int dlo = nw ? starts[nw - 1] : 1, dhi = nw ? starts[0] + (int)k - 1 : 0;
    for (int d = dlo; d <= dhi && !bad; d++) {                        /* in every window */
        m = 0;
        for (Py_ssize_t i = 0; i < k; i++) if (ms[i] >> d & 1) buf[m++] = bs[i] + d;
        bad = emit(clauses, buf, m) < 0;
    }
    lits_free();
    if (bad) return NULL;
    return PyLong_FromLongLong(top);
}

/* the unit clauses of csp/sat.py's SatSession: each candidate the masks removed, cell by
 * cell and digit by digit, then the n variables between the candidates and the auxiliary
 * ones: [[-v], ...] */
static PyObject *units(PyObject *self, PyObject *args) {
    PyObject *cand;
    int n, packed = 0;
    if (!PyArg_ParseTuple(args, "O!i|p", &PyList_Type, &cand, &n, &packed)) return NULL;
    if (n < 1 || n > 62) { PyErr_SetString(PyExc_ValueError, "n must be 1..62"); return NULL; }
    Py_ssize_t size = PyList_GET_SIZE(cand);
    uint64_t full = ((((uint64_t)1) << n) - 1) << 1;
    uint64_t *ms = malloc(((size_t)size + 1) * sizeof(uint64_t));
    if (!ms) return PyErr_NoMemory();
    for (Py_ssize_t c = 0; c < size; c++)
        if (read_mask(PyList_GET_ITEM(cand, c), n, &ms[c]) < 0) { free(ms); return NULL; }
    PyObject *out = packed ? PyByteArray_FromStringAndSize(NULL, 0) : PyList_New(0);
    if (!out) { free(ms); return NULL; }
    for (Py_ssize_t c = 0; c <= size; c++) {
        /* past the last cell: the n numbers after the candidates, all of them */
        uint64_t gone = c < size ? full & ~ms[c] : full;
        long long base = (long long)c * n;
        for (int d = 1; d <= n; d++) {
            if (!(gone >> d & 1)) continue;
            ll x = -(base + d);
            if (emit(out, &x, 1) < 0) { Py_DECREF(out); free(ms); return NULL; }
        }
    }
    free(ms);
    return out;
}

/* supports(rels, cand, n): the support clauses of csp/cnf_enum.py's `relation_supports`,
 * the same lists in the same order: per relation (a, b, sup_a, sup_b) (sup_x[v]: the
 * digits of the other cell that v goes with), per digit v of a the clause
 * [-(a*n + v)] + [b*n + w for w of b's digits v goes with], then the same from b */
static PyObject *supports(PyObject *self, PyObject *args) {
    PyObject *rels, *cand;
    int n, packed = 0;
    if (!PyArg_ParseTuple(args, "O!O!i|p", &PyList_Type, &rels, &PyList_Type, &cand, &n,
                          &packed))
        return NULL;
    if (n < 1 || n > 62) { PyErr_SetString(PyExc_ValueError, "n must be 1..62"); return NULL; }
    Py_ssize_t size = PyList_GET_SIZE(cand), nr = PyList_GET_SIZE(rels);
    PyObject *out = packed ? PyByteArray_FromStringAndSize(NULL, 0) : PyList_New(0);
    if (!out) return NULL;
    if (lits_init(1, (ll)size * n + n) < 0) { Py_DECREF(out); return NULL; }
    ll xs[64];
    for (Py_ssize_t r = 0; r < nr; r++) {
        PyObject *rel = PyList_GET_ITEM(rels, r);
        if (!PyTuple_Check(rel) || PyTuple_GET_SIZE(rel) != 4) {
            PyErr_SetString(PyExc_TypeError, "a relation is (a, b, sup_a, sup_b)");
            goto fail;
        }
        Py_ssize_t cell[2];
        uint64_t m[2];
        for (int j = 0; j < 2; j++) {
            cell[j] = as_index(PyTuple_GET_ITEM(rel, j), size);
            if (cell[j] < 0) goto fail;
            if (read_mask(PyList_GET_ITEM(cand, cell[j]), n, &m[j]) < 0) goto fail;
        }
        for (int j = 0; j < 2; j++) {
            PyObject *sup = PyTuple_GET_ITEM(rel, 2 + j);
            ll here = (ll)cell[j] * n, there = (ll)cell[1 - j] * n;
            for (int v = 1; v <= n; v++) {
                if (!(m[j] >> v & 1)) continue;
                PyObject *sv = PySequence_GetItem(sup, v);
                if (!sv) goto fail;
                uint64_t s = PyLong_AsUnsignedLongLong(sv);
                Py_DECREF(sv);
                if (s == (uint64_t)-1 && PyErr_Occurred()) goto fail;
                s &= m[1 - j];
                Py_ssize_t len = 0;
                xs[len++] = -(here + v);
                for (int w = 1; w <= n; w++)
                    if (s >> w & 1) xs[len++] = there + w;
                if (emit(out, xs, len) < 0) goto fail;
            }
        }
    }
    lits_free();
    return out;
fail:
    lits_free();
    Py_DECREF(out);
    return NULL;
}

/* forbidden(clauses, a, b, sup_a, cand, n): a binary relation's clauses (csp/sat.py
 * `_relation`), appended to clauses: per digit v of a and digit w of b that v does not go
 * with (w not in sup_a[v]), the clause [-(a*n + v), -(b*n + w)], v then w rising */
static int forbidden_one(PyObject *clauses, Py_ssize_t a, Py_ssize_t b, PyObject *sup,
                         PyObject *cand, int n) {
    Py_ssize_t size = PyList_GET_SIZE(cand);
    if (a < 0 || a >= size || b < 0 || b >= size) {
        PyErr_SetString(PyExc_ValueError, "cell out of range");
        return -1;
    }
    uint64_t ma, mb;
    if (read_mask(PyList_GET_ITEM(cand, a), n, &ma) < 0
        || read_mask(PyList_GET_ITEM(cand, b), n, &mb) < 0)
        return -1;
    ll na = (ll)a * n, nb = (ll)b * n;
    for (int v = 1; v <= n; v++) {
        if (!(ma >> v & 1)) continue;
        PyObject *sv = PySequence_GetItem(sup, v);
        if (!sv) return -1;
        uint64_t s = PyLong_AsUnsignedLongLong(sv);
        Py_DECREF(sv);
        if (s == (uint64_t)-1 && PyErr_Occurred()) return -1;
        uint64_t bad = mb & ~s;
        for (int w = 1; w <= n; w++) {
            if (!(bad >> w & 1)) continue;
            if (pk_is(clauses)) {
                ll xs[2] = {-(na + v), -(nb + w)};
                if (pk_put(clauses, xs, 2, 0) < 0) return -1;
                continue;
            }
            PyObject *l = PyList_New(2);
            if (!l) return -1;
            PyObject *x = PyLong_FromLongLong(-(na + v)), *y = PyLong_FromLongLong(-(nb + w));
            if (!x || !y) { Py_XDECREF(x); Py_XDECREF(y); Py_DECREF(l); return -1; }
            PyList_SET_ITEM(l, 0, x);
            PyList_SET_ITEM(l, 1, y);
            int r = PyList_Append(clauses, l);
            Py_DECREF(l);
            if (r < 0) return -1;
        }
    }
    return 0;
}

static PyObject *forbidden(PyObject *self, PyObject *args) {
    PyObject *clauses, *sup, *cand;
    Py_ssize_t a, b;
    int n;
    if (!PyArg_ParseTuple(args, "OnnOO!i", &clauses, &a, &b, &sup,
                          &PyList_Type, &cand, &n))
        return NULL;
    if (pk_target(clauses, "clauses") < 0) return NULL;
    if (n < 1 || n > 62) { PyErr_SetString(PyExc_ValueError, "n must be 1..62"); return NULL; }
    if (forbidden_one(clauses, a, b, sup, cand, n) < 0) return NULL;
    Py_RETURN_NONE;
}

/* forbidden_run(clauses, rels, cand, n): forbidden(clauses, a, b, sup_a, cand, n) of each
 * (a, b, sup_a) of the list rels in turn (a run of plain relations in a puzzle's rules,
 * one call instead of one each) */
static PyObject *forbidden_run(PyObject *self, PyObject *args) {
    PyObject *clauses, *rels, *cand;
    int n;
    if (!PyArg_ParseTuple(args, "OO!O!i", &clauses, &PyList_Type, &rels,
                          &PyList_Type, &cand, &n))
        return NULL;
    if (pk_target(clauses, "clauses") < 0) return NULL;
    if (n < 1 || n > 62) { PyErr_SetString(PyExc_ValueError, "n must be 1..62"); return NULL; }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(rels); i++) {
        PyObject *t = PyList_GET_ITEM(rels, i);
        if (!PyTuple_CheckExact(t) || PyTuple_GET_SIZE(t) != 3) {
            PyErr_SetString(PyExc_TypeError, "rels: (a, b, sup_a) tuples expected");
            return NULL;
        }
        Py_ssize_t a = PyLong_AsSsize_t(PyTuple_GET_ITEM(t, 0));
        if (a == -1 && PyErr_Occurred()) return NULL;
        Py_ssize_t b = PyLong_AsSsize_t(PyTuple_GET_ITEM(t, 1));
        if (b == -1 && PyErr_Occurred()) return NULL;
        if (forbidden_one(clauses, a, b, PyTuple_GET_ITEM(t, 2), cand, n) < 0) return NULL;
    }
    Py_RETURN_NONE;
}


/* the order literals of a line's end (csp/sat.py `_order_lits`: per v = 0 .. n + 2, True,
 * False or a variable) read into `out` (LINE_T for True, 0 for False: no literal is 0) */
#define LINE_T LLONG_MAX
static int read_order(PyObject *o, int n, ll *out) {
    if (!PyList_Check(o) || PyList_GET_SIZE(o) != n + 3) {
        PyErr_SetString(PyExc_ValueError, "order literals: a list of n + 3 items");
        return -1;
    }
    for (int v = 0; v < n + 3; v++) {
        PyObject *x = PyList_GET_ITEM(o, v);
        if (x == Py_True) out[v] = LINE_T;
        else if (x == Py_False) out[v] = 0;
        else {
            if (!PyLong_Check(x)) { PyErr_SetString(PyExc_TypeError, "order literals: bools or ints"); return -1; }
            out[v] = PyLong_AsLongLong(x);
            if (out[v] == -1 && PyErr_Occurred()) return -1;
            if (out[v] == 0 || out[v] > ((ll)1 << 40) || out[v] < -((ll)1 << 40)) {
                PyErr_SetString(PyExc_ValueError, "order literal out of range");
                return -1;
            }
        }
    }
    return 0;
}

static inline ll line_neg(ll x) { return x == LINE_T ? 0 : x == 0 ? LINE_T : -x; }

/* csp/sat.py `_or3`: the clause a or y or z, none when y or z is True, a False one left out */
static int line_or3(PyObject *out, ll a, ll y, ll z) {
    if (y == LINE_T || z == LINE_T) return 0;
    ll xs[3];
    Py_ssize_t len = 0;
    xs[len++] = a;
    if (y) xs[len++] = y;
    if (z) xs[len++] = z;
    return emit(out, xs, len);
}

/* line(clauses, kind, cmask, base, n, ga, gb, up, g, abase=0, amask=0, bbase=0, bmask=0):
 * one cell's clauses of a between line (kind 0) or a lockout line (kind 1) over its ends'
 * order literals ga, gb (csp/sat.py `_between`, `_lockout`: the clauses those write, in the
 * same order). Between: per digit v of the cell (variable base + v), a < v < b when `up`,
 * b < v < a when not; then per v = 1 .. n the ends at least g + 1 apart. Lockout: per
 * digit v, a > v or b < v, and b > v or a < v; then the cell not on an end's digit (per
 * digit v of amask, then of bmask: the cell's digits an end shares without a house
 * saying so; abase, bbase: the ends' ids times n); then the ends at most n - 1 - g apart
 * (an empty clause when that is negative) */
static PyObject *line(PyObject *self, PyObject *args) {
    PyObject *clauses, *oa, *ob;
    int kind, n;
    long long cmask, base, up, g, ebase[2] = {0, 0}, emask[2] = {0, 0};
    if (!PyArg_ParseTuple(args, "OiLLiOOLL|LLLL", &clauses, &kind, &cmask, &base, &n, &oa,
                          &ob, &up, &g, &ebase[0], &emask[0], &ebase[1], &emask[1]))
        return NULL;
    if (pk_target(clauses, "clauses") < 0) return NULL;
    if (n < 1 || n > 62) { PyErr_SetString(PyExc_ValueError, "n must be 1..62"); return NULL; }
    if (kind != 0 && kind != 1) { PyErr_SetString(PyExc_ValueError, "kind: 0 or 1"); return NULL; }
    if (cmask < 0 || (uint64_t)cmask >> (n + 1) || base < 0 || base > ((ll)1 << 40)
        || up < 0 || up > ((ll)1 << 40) || g < 0 || g > 1000
        || ebase[0] < 0 || ebase[0] > ((ll)1 << 40) || ebase[1] < 0 || ebase[1] > ((ll)1 << 40)
        || emask[0] < 0 || (uint64_t)emask[0] >> (n + 1) || emask[1] < 0 || (uint64_t)emask[1] >> (n + 1)) {
        PyErr_SetString(PyExc_ValueError, "line: an argument out of range");
        return NULL;
    }
    ll ga[66], gb[66], nga[66], ngb[66];
    if (read_order(oa, n, ga) < 0 || read_order(ob, n, gb) < 0) return NULL;
    for (int v = 0; v < n + 3; v++) { nga[v] = line_neg(ga[v]); ngb[v] = line_neg(gb[v]); }
    ll hi = base + n > up ? base + n : up;
    for (int j = 0; j < 2; j++) if (ebase[j] + n > hi) hi = ebase[j] + n;
    for (int v = 0; v < n + 3; v++) {
        if (ga[v] != LINE_T && llabs(ga[v]) > hi) hi = llabs(ga[v]);
        if (gb[v] != LINE_T && llabs(gb[v]) > hi) hi = llabs(gb[v]);
    }
    if (!pk_is(clauses) && lits_init(1, hi) < 0) return NULL;
    int bad = 0;
    for (int v = 1; v <= n && !bad; v++) {
        if (!((uint64_t)cmask >> v & 1)) continue;
        ll x = -(base + v);
        if (kind == 0)
            bad = line_or3(clauses, x, -up, nga[v]) < 0 || line_or3(clauses, x, -up, gb[v + 1]) < 0
                  || line_or3(clauses, x, up, ngb[v]) < 0 || line_or3(clauses, x, up, ga[v + 1]) < 0;
        else
            bad = line_or3(clauses, x, ga[v + 1], ngb[v]) < 0
                  || line_or3(clauses, x, gb[v + 1], nga[v]) < 0;
    }
    if (kind == 0)
        for (int v = 1; v <= n && !bad; v++) {
            ll w = v + g + 1 < n + 1 ? v + g + 1 : n + 1;
            bad = line_or3(clauses, -up, nga[v], gb[w]) < 0 || line_or3(clauses, up, ngb[v], ga[w]) < 0;
        }
    else {
        for (int j = 0; j < 2 && !bad; j++)          /* not an end's digit (emask[j]) */
            for (int v = 1; v <= n && !bad; v++)
                if ((uint64_t)emask[j] >> v & 1) bad = emit2(clauses, -(base + v), -(ebase[j] + v)) < 0;
        ll span = n - 1 - g, xs[2] = {0, 0};                /* the ends at most span apart */
        if (span < 0 && !bad) bad = emit(clauses, xs, 0) < 0;
        for (ll v = span + 2; v <= n && span >= 0 && !bad; v++) {
            ll pr[2][2] = {{ngb[v], ga[v - span]}, {nga[v], gb[v - span]}};
            for (int j = 0; j < 2 && !bad; j++) {
                if (pr[j][0] == LINE_T || pr[j][1] == LINE_T) continue;
                Py_ssize_t len = 0;
                if (pr[j][0]) xs[len++] = pr[j][0];
                if (pr[j][1]) xs[len++] = pr[j][1];
                bad = emit(clauses, xs, len) < 0;
            }
        }
    }
    if (!pk_is(clauses)) lits_free();
    if (bad) return NULL;
    Py_RETURN_NONE;
}



/* order(clauses, cmask, base, n, top) -> (ge, top): a cell's order literals and their
 * clauses (csp/sat.py `_order_lits`, the same list and clauses in the same order): ge[v],
 * v = 0 .. n + 2, True up to the cell's lowest candidate lo, a new variable (top + 1, ...)
 * for lo < v <= hi (its highest), False above; per such v, "at least v" needs "at least v
 * - 1" (past lo + 1) and v or "at least v + 1"; per candidate d, d needs "at least d" (d >
 * lo) and not "at least d + 1" (d < hi). The mask must not be empty */
static PyObject *order(PyObject *self, PyObject *args) {
    PyObject *clauses;
    long long cmask, base, top;
    int n;
    if (!PyArg_ParseTuple(args, "OLLiL", &clauses, &cmask, &base, &n, &top)) return NULL;
    if (pk_target(clauses, "clauses") < 0) return NULL;
    if (n < 1 || n > 62) { PyErr_SetString(PyExc_ValueError, "n must be 1..62"); return NULL; }
    if (cmask <= 0 || (uint64_t)cmask >> (n + 1) || (cmask & 1) || base < 0 || base > ((ll)1 << 40)
        || top < 0 || top > ((ll)1 << 40)) {
        PyErr_SetString(PyExc_ValueError, "order: an argument out of range");
        return NULL;
    }
    uint64_t m = (uint64_t)cmask;
    int lo = __builtin_ctzll(m), hi = 63 - __builtin_clzll(m);
    ll ge[66];                       /* LINE_T, 0 (False) or a variable */
    for (int v = 0; v < n + 3; v++) ge[v] = v <= lo ? LINE_T : 0;
    for (int v = lo + 1; v <= hi; v++) ge[v] = ++top;
    PyObject *lst = PyList_New(n + 3);
    if (!lst) return NULL;
    for (int v = 0; v < n + 3; v++) {
        PyObject *x = ge[v] == LINE_T ? Py_True : ge[v] == 0 ? Py_False : PyLong_FromLongLong(ge[v]);
        if (!x) { Py_DECREF(lst); return NULL; }
        if (ge[v] == LINE_T || ge[v] == 0) Py_INCREF(x);
        PyList_SET_ITEM(lst, v, x);
    }
    int pk = pk_is(clauses), bad = 0;
    if (!pk && lits_init(1, base + n > top ? base + n : top) < 0) { Py_DECREF(lst); return NULL; }
    ll xs[3];
    for (int v = lo + 1; v <= hi && !bad; v++) {
        ll x = ge[v];
        if (v - 1 > lo) bad = emit2(clauses, -x, ge[v - 1]) < 0;
        if (bad) break;
        Py_ssize_t len = 0;
        xs[len++] = -x;
        if (m >> v & 1) xs[len++] = base + v;
        if (ge[v + 1] != 0) xs[len++] = ge[v + 1];
        bad = emit(clauses, xs, len) < 0;
    }
    for (int d = 1; d <= n && !bad; d++) {
        if (!(m >> d & 1)) continue;
        if (d > lo) bad = emit2(clauses, -(base + d), ge[d]) < 0;
        if (!bad && ge[d + 1] != 0) bad = emit2(clauses, -(base + d), -ge[d + 1]) < 0;
    }
    if (!pk) lits_free();
    if (bad) { Py_DECREF(lst); return NULL; }
    return Py_BuildValue("(NL)", lst, top);
}

/* product(clauses, lits, top) -> top: the product encoding's pairs of an "at most one" of
 * the k literals `lits` (csp/sat.py `Encoding.at_most_one` past AMO_PAIRWISE): p =
 * ceil(sqrt(k)) row variables top + 1 .. top + p and q = ceil(k / p) column variables
 * after them; literal i (row i / q, column i % q) gives [-x, row] and [-x, column], in
 * order. The caller writes "at most one" of the rows and of the columns */
static PyObject *product(PyObject *self, PyObject *args) {
    PyObject *clauses, *lst;
    long long top;
    if (!PyArg_ParseTuple(args, "OO!L", &clauses, &PyList_Type, &lst, &top)) return NULL;
    if (pk_target(clauses, "clauses") < 0) return NULL;
    Py_ssize_t k = PyList_GET_SIZE(lst);
    if (k < 2 || top < 0 || top > ((ll)1 << 40)) {
        PyErr_SetString(PyExc_ValueError, "product: two literals or more, top in range");
        return NULL;
    }
    ll *xs = malloc((size_t)k * sizeof(ll));
    if (!xs) return PyErr_NoMemory();
    ll hi = top;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *o = PyList_GET_ITEM(lst, i);
        if (!PyLong_Check(o)) { free(xs); PyErr_SetString(PyExc_TypeError, "literals must be ints"); return NULL; }
        xs[i] = PyLong_AsLongLong(o);
        if (xs[i] == -1 && PyErr_Occurred()) { free(xs); return NULL; }
        if (xs[i] == 0 || xs[i] > ((ll)1 << 40) || xs[i] < -((ll)1 << 40)) {
            free(xs); PyErr_SetString(PyExc_ValueError, "literal out of range"); return NULL;
        }
        if (llabs(xs[i]) > hi) hi = llabs(xs[i]);
    }
    ll p = 0;                                   /* rows: isqrt(k - 1) + 1 */
    while ((p + 1) * (p + 1) <= (ll)k - 1) p++;
    p++;
    ll q = ((ll)k + p - 1) / p;
    if (top + p + q > hi) hi = top + p + q;
    int pk = pk_is(clauses), bad = 0;
    if (!pk && lits_init(1, hi) < 0) { free(xs); return NULL; }
    for (Py_ssize_t i = 0; i < k && !bad; i++) {
        ll r = (ll)i / q, c = (ll)i % q;
        bad = emit2(clauses, -xs[i], top + 1 + r) < 0 || emit2(clauses, -xs[i], top + p + 1 + c) < 0;
    }
    if (!pk) lits_free();
    free(xs);
    if (bad) return NULL;
    return PyLong_FromLongLong(top + p + q);
}

/* unpack(block, pairs=False): a packed block's clauses (csp/_packed.h) as the lists and
 * tuples ("at most one" groups) its writers would have appended to a list, in order (what
 * csp/sat.py's `unpacked` reads in Python); with `pairs`, a group as its pairwise clauses
 * [-a, -b] instead (`Encoding.expanded`: itertools.combinations' order). ValueError on a
 * block that is not whole records */
static PyObject *unpack(PyObject *self, PyObject *args) {
    PyObject *ba;
    int pairs = 0;
    if (!PyArg_ParseTuple(args, "O!|p", &PyByteArray_Type, &ba, &pairs)) return NULL;
    Py_ssize_t bytes = PyByteArray_GET_SIZE(ba), len = bytes / (Py_ssize_t)sizeof(int);
    if (bytes % (Py_ssize_t)sizeof(int)) {
        PyErr_SetString(PyExc_ValueError, "a packed block of whole ints expected");
        return NULL;
    }
    const int *a = (const int *)PyByteArray_AS_STRING(ba);
    ll hi = 0;
    Py_ssize_t nrec = 0;
    for (Py_ssize_t p = 0; p < len;) {       /* the records checked, the literals' range */
        int h = a[p];
        Py_ssize_t m = h >> 1;
        if (h < 0 || p + 1 + m > len) {
            PyErr_SetString(PyExc_ValueError, "a packed block: bad record");
            return NULL;
        }
        for (Py_ssize_t k = 1; k <= m; k++) {
            ll x = a[p + k] < 0 ? -(ll)a[p + k] : a[p + k];
            if (x > hi) hi = x;
        }
        nrec++;
        p += 1 + m;
    }
    if (hi > (1 << 22)) hi = 1 << 22;        /* the cache: the first literals only */
    if (lits_init(1, hi) < 0) return NULL;
    PyObject *out = PyList_New(0);
    if (!out) { lits_free(); return NULL; }
    for (Py_ssize_t p = 0; p < len;) {
        int h = a[p], group = h & 1;
        Py_ssize_t m = h >> 1;
        const int *xs = a + p + 1;
        PyObject *c = NULL;
        p += 1 + m;
        if (group && pairs) {
            for (Py_ssize_t i = 0; i < m; i++)
                for (Py_ssize_t j = i + 1; j < m; j++)
                    if (emit2(out, -(ll)xs[i], -(ll)xs[j]) < 0) goto fail;
            continue;
        }
        c = group ? PyTuple_New(m) : PyList_New(m);
        if (!c) goto fail;
        for (Py_ssize_t i = 0; i < m; i++) {
            PyObject *v = lit(xs[i]);
            if (!v) { Py_DECREF(c); goto fail; }
            if (group) PyTuple_SET_ITEM(c, i, v); else PyList_SET_ITEM(c, i, v);
        }
        int r = PyList_Append(out, c);
        Py_DECREF(c);
        if (r < 0) goto fail;
    }
    lits_free();
    return out;
fail:
    lits_free();
    Py_DECREF(out);
    return NULL;
}

/* distinct(doms, pairs) -> list of tuples: csp/sat.py's `distinct_product` (its reference
 * and fallback): the tuples of itertools.product(*doms), in its order, whose positions i, j
 * hold different digits for each (i, j) of pairs (i < j). doms: k lists of digits 0..63
 * (k at most 64); the walk keeps per position the digits its earlier partners took, and
 * drops a prefix once a later position has no digit left that its own earlier partners
 * (those already placed) leave it. ValueError on anything else (the caller walks in Python) */
static PyObject *distinct(PyObject *self, PyObject *args) {
    PyObject *doms, *pairs;
    if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &doms, &PyList_Type, &pairs))
        return NULL;
    Py_ssize_t k = PyList_GET_SIZE(doms);
    if (k < 1 || k > 64) {
        PyErr_SetString(PyExc_ValueError, "distinct: 1 to 64 positions");
        return NULL;
    }
    int dn[64], dl[64][64];
    uint64_t dm[64], before[64];
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *ds = PyList_GET_ITEM(doms, i);
        PyObject *fast = PySequence_Fast(ds, "distinct: doms holds sequences");
        if (!fast) return NULL;
        Py_ssize_t m = PySequence_Fast_GET_SIZE(fast);
        if (m > 64) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "distinct: 64 digits at most"); return NULL; }
        dn[i] = (int)m; dm[i] = 0; before[i] = 0;
        for (Py_ssize_t j = 0; j < m; j++) {
            long d = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, j));
            if (d == -1 && PyErr_Occurred()) { Py_DECREF(fast); return NULL; }
            if (d < 0 || d > 63) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "distinct: digits 0..63"); return NULL; }
            dl[i][j] = (int)d; dm[i] |= (uint64_t)1 << d;
        }
        Py_DECREF(fast);
    }
    uint64_t after[64];                    /* per position, its partners after it */
    for (Py_ssize_t i = 0; i < k; i++) after[i] = 0;
    Py_ssize_t np = PyList_GET_SIZE(pairs);
    for (Py_ssize_t t = 0; t < np; t++) {
        long a, b;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(pairs, t), "ll", &a, &b)) return NULL;
        if (a < 0 || b <= a || b >= k) { PyErr_SetString(PyExc_ValueError, "distinct: pairs (i, j), i < j < k"); return NULL; }
        before[b] |= (uint64_t)1 << a;
        after[a] |= (uint64_t)1 << b;
    }
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    int tup[64], idx[64];
    /* per position, how many of its placed partners hold each digit (two partners of one
     * position may hold the same digit when they are not partners of each other), and
     * the mask of the digits held */
    unsigned char held[64][64];
    uint64_t taken[64];
    memset(held, 0, sizeof held);
    for (Py_ssize_t i = 0; i < k; i++) taken[i] = 0;
    Py_ssize_t p = 0;
    idx[0] = -1;
    while (p >= 0) {
        /* take back this position's digit from its later partners before the next one */
        if (idx[p] >= 0) {
            int d0 = tup[p];
            uint64_t rest = after[p];
            while (rest) {
                int q = __builtin_ctzll(rest); rest &= rest - 1;
                if (!--held[q][d0]) taken[q] &= ~((uint64_t)1 << d0);
            }
        }
        int found = 0;
        while (++idx[p] < dn[p]) {
            int d = dl[p][idx[p]];
            uint64_t bit = (uint64_t)1 << d;
            if (taken[p] & bit) continue;
            /* place it: later partners lose d; a later one left with nothing ends it */
            uint64_t rest = after[p];
            int dead = 0;
            while (rest) {
                int q = __builtin_ctzll(rest); rest &= rest - 1;
                held[q][d]++;
                taken[q] |= bit;
                if (!(dm[q] & ~taken[q])) dead = 1;
            }
            tup[p] = d;
            if (!dead) { found = 1; break; }
            rest = after[p];
            while (rest) {
                int q = __builtin_ctzll(rest); rest &= rest - 1;
                if (!--held[q][d]) taken[q] &= ~bit;
            }
        }
        if (!found) { idx[p] = -1; p--; continue; }
        if (p == k - 1) {
            PyObject *t = PyTuple_New(k);
            if (!t) { Py_DECREF(out); return NULL; }
            for (Py_ssize_t i = 0; i < k; i++) {
                PyObject *v = PyLong_FromLong(tup[i]);
                if (!v) { Py_DECREF(t); Py_DECREF(out); return NULL; }
                PyTuple_SET_ITEM(t, i, v);
            }
            int bad = PyList_Append(out, t);
            Py_DECREF(t);
            if (bad < 0) { Py_DECREF(out); return NULL; }
            continue;                      /* the next digit here (undone at the top) */
        }
        p++;
        idx[p] = -1;
    }
    return out;
}

/* the writers through the pending packed records (csp/_packed.h): appended to their
 * blocks when the call succeeds, forgotten when it fails */
#define PK_WRAP(f) \
    static PyObject *f##_pk(PyObject *self, PyObject *args) { PK_CALL(f, self, args, 0); }
PK_WRAP(forbidden)
PK_WRAP(forbidden_run)
PK_WRAP(supports)
PK_WRAP(units)
PK_WRAP(cells)
PK_WRAP(house)
PK_WRAP(houses)
PK_WRAP(consecutive)
PK_WRAP(layers)
PK_WRAP(line)
PK_WRAP(product)
PK_WRAP(order)

static PyMethodDef methods[] = {
    {"forbidden", forbidden_pk, METH_VARARGS,
     "forbidden(clauses, a, b, sup_a, cand, n): a binary relation's clauses (csp/sat.py)"},
    {"forbidden_run", forbidden_run_pk, METH_VARARGS,
     "forbidden_run(clauses, rels, cand, n): forbidden(clauses, a, b, sup_a, cand, n) of "
     "each (a, b, sup_a) of rels in turn (csp/sat.py)"},
    {"supports", supports_pk, METH_VARARGS,
     "supports(rels, cand, n, packed=False): the binary relations' support clauses "
     "(csp/cnf_enum.py); a packed block (a bytearray) when packed"},
    {"units", units_pk, METH_VARARGS,
     "units(cand, n, packed=False): the unit clauses of the variables no clause mentions "
     "(csp/sat.py); a packed block (a bytearray) when packed"},
    {"cells", cells_pk, METH_VARARGS,
     "cells(clauses, cand, n): each cell's exactly-one clauses, compact (csp/sat.py)"},
    {"house", house_pk, METH_VARARGS,
     "house(clauses, cand, cells, n): a house's clauses per digit, compact (csp/sat.py)"},
    {"houses", houses_pk, METH_VARARGS,
     "houses(clauses, cand, houses, n): house(clauses, cand, cells, n) of each cell list "
     "of houses in turn (csp/sat.py)"},
    {"consecutive", consecutive_pk, METH_VARARGS,
     "consecutive(clauses, masks, bases, n, top) -> top: a renban's clauses (csp/sat.py)"},
    {"line", line_pk, METH_VARARGS,
     "line(clauses, kind, cmask, base, n, ga, gb, up, g): a between (0) or lockout (1) "
     "line cell's clauses over its ends' order literals (csp/sat.py)"},
    {"product", product_pk, METH_VARARGS,
     "product(clauses, lits, top) -> top: the product encoding's pairs of an \"at most "
     "one\" past AMO_PAIRWISE literals (csp/sat.py Encoding.at_most_one)"},
    {"order", order_pk, METH_VARARGS,
     "order(clauses, cmask, base, n, top) -> (ge, top): a cell's order literals and their "
     "clauses (csp/sat.py _order_lits)"},
    {"distinct", distinct, METH_VARARGS,
     "distinct(doms, pairs) -> the tuples of itertools.product(*doms), in order, that give "
     "each pair (i, j) of positions different digits (csp/sat.py distinct_product)"},
    {"forward", forward, METH_VARARGS,
     "forward(native, doms, limit) -> (layers, start live) or None: the layers of an "
     "automaton the kernel steps itself (csp/sat.py)"},
    {"unpack", unpack, METH_VARARGS,
     "unpack(block, pairs=False) -> the clauses of a packed block as lists and tuples "
     "(csp/sat.py `unpacked`); with pairs, a group as its pairwise clauses"},
    {"layers", layers_pk, METH_VARARGS,
     "layers(clauses, extra, doms, trans, live, bases, masks, n, top, sup, project, "
     "work_limit) -> top: an automaton's clauses after its live states (csp/sat.py)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_auto_kernel",
                                    "The clause writing of csp.sat's automaton encoding.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__auto_kernel(void) { return PyModule_Create(&module); }
