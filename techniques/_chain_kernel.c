/* The implication searches of techniques/chains.py in C: the breadth-first search from one
 * node (_bfs / _search), the shortest path read back from its levels (_path) and the
 * all-starts closure (_reach_closure with what _loop_cands, _discontinuous and _continuous
 * read from it).
 *
 * techniques/chains.py stays the reference and the fallback (SUDOKU_CSP_PURE=1, module not
 * built, graphs of more than MAXNODES nodes). A graph's strong and weak links (bitsets of
 * node indices, Python ints) are copied once into a context (graph(), a capsule) as arrays
 * of 64-bit words; the searches run on it. search() keeps its level sets in a second
 * capsule that path() reads, so a path costs no Python ints per level.
 *
 * Every result is the Python code's, bit for bit (the same levels, the same predecessor
 * picked, the same closure sets): tests/techniques/test_chain_kernel.py compares both.
 * Plain C99 + the CPython API.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#define KERNEL_NAME "_chain_kernel"
#include "_u128.h"

#define MAXNODES 8192     /* larger graphs (25x25 and up): the Python path */
#define MAXHUBS 4096      /* closure: hubs x hubs bits */
#define MAXLEN 4096       /* search depth bound */

typedef uint64_t word;

#if PY_VERSION_HEX >= 0x030D0000
#define AS_BYTES(o, b, n) _PyLong_AsByteArray((PyLongObject *)(o), (b), (n), 1, 0, 1)
#else
#define AS_BYTES(o, b, n) _PyLong_AsByteArray((PyLongObject *)(o), (b), (n), 1, 0)
#endif

/* a non-negative Python int into w words (bit i of the int = bit i%64 of word i/64);
 * -1 with an exception set when it is no int, negative or needs more than w words */
static int to_words(PyObject *o, word *out, Py_ssize_t w) {
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "_chain_kernel: bitsets must be ints");
        return -1;
    }
    int sign = _PyLong_Sign(o);
    if (sign == 0) {
        memset(out, 0, (size_t)w * sizeof(word));
        return 0;
    }
    if (sign < 0) {
        PyErr_SetString(PyExc_ValueError, "_chain_kernel: negative bitset");
        return -1;
    }
    unsigned char *b = (unsigned char *)out;
    if (AS_BYTES(o, b, (size_t)w * 8) < 0) return -1;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (Py_ssize_t i = 0; i < w; i++) {
        word v = 0;
        for (int k = 7; k >= 0; k--) v = (v << 8) | b[i * 8 + k];
        out[i] = v;
    }
#endif
    return 0;
}

/* w words as a Python int (a new reference, NULL with an exception set) */
static PyObject *from_words(const word *x, Py_ssize_t w) {
    while (w > 0 && !x[w - 1]) w--;
    if (w == 0) return PyLong_FromLong(0);
    if (w == 1) return PyLong_FromUnsignedLongLong((unsigned long long)x[0]);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    unsigned char *b = malloc((size_t)w * 8);
    if (!b) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < w; i++)
        for (int k = 0; k < 8; k++) b[i * 8 + k] = (unsigned char)(x[i] >> (8 * k));
    PyObject *r = _PyLong_FromByteArray(b, (size_t)w * 8, 1, 0);
    free(b);
    return r;
#else
    return _PyLong_FromByteArray((const unsigned char *)x, (size_t)w * 8, 1, 0);
#endif
}

static inline int ctz(word x) { return __builtin_ctzll(x); }

/* ------------------------------------------------------------------------------------ */
/* the graph context                                                                     */
/* ------------------------------------------------------------------------------------ */
typedef struct {
    Py_ssize_t n, w;        /* nodes, words per node bitset */
    word *strong, *weak;    /* n * w */
    word *hubs, *cands;     /* w */
} Graph;

static void graph_free(PyObject *cap) {
    Graph *g = (Graph *)PyCapsule_GetPointer(cap, "chain_graph");
    if (!g) { PyErr_Clear(); return; }
    free(g->strong); free(g->weak); free(g->hubs); free(g->cands);
    free(g);
}

static Graph *get_graph(PyObject *cap) {
    if (!PyCapsule_IsValid(cap, "chain_graph")) {
        PyErr_SetString(PyExc_TypeError, "_chain_kernel: not a graph context");
        return NULL;
    }
    return (Graph *)PyCapsule_GetPointer(cap, "chain_graph");
}

PyDoc_STRVAR(graph_doc,
"graph(strong, weak, hubs, cands) -> context or None\n\n"
"The node graph of chains.ChainGraph: strong[i], weak[i] (lists of bitsets of node\n"
"indices), the hubs (nodes with a strong link) and the candidate nodes. None when the\n"
"graph has more than MAXNODES nodes (the Python path searches it).");

static PyObject *k_graph(PyObject *self, PyObject *args) {
    PyObject *strong, *weak, *hubs, *cands;
    if (!PyArg_ParseTuple(args, "O!O!OO", &PyList_Type, &strong, &PyList_Type, &weak,
                          &hubs, &cands))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(strong);
    if (PyList_GET_SIZE(weak) != n) {
        PyErr_SetString(PyExc_ValueError, "_chain_kernel: strong and weak differ in length");
        return NULL;
    }
    if (n > MAXNODES) Py_RETURN_NONE;
    Py_ssize_t w = n / 64 + 1;
    Graph *g = calloc(1, sizeof(Graph));
    if (!g) return PyErr_NoMemory();
    g->n = n;
    g->w = w;
    g->strong = calloc((size_t)(n ? n : 1) * w, sizeof(word));
    g->weak = calloc((size_t)(n ? n : 1) * w, sizeof(word));
    g->hubs = calloc((size_t)w, sizeof(word));
    g->cands = calloc((size_t)w, sizeof(word));
    PyObject *cap = NULL;
    if (!g->strong || !g->weak || !g->hubs || !g->cands) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (to_words(PyList_GET_ITEM(strong, i), g->strong + i * w, w) < 0) goto fail;
        if (to_words(PyList_GET_ITEM(weak, i), g->weak + i * w, w) < 0) goto fail;
    }
    if (to_words(hubs, g->hubs, w) < 0 || to_words(cands, g->cands, w) < 0) goto fail;
    /* bits past n would index outside the arrays: the last word is masked */
    word last = (n % 64) ? (((word)1 << (n % 64)) - 1) : 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        g->strong[i * w + w - 1] &= last;
        g->weak[i * w + w - 1] &= last;
    }
    g->hubs[w - 1] &= last;
    g->cands[w - 1] &= last;
    cap = PyCapsule_New(g, "chain_graph", graph_free);
    if (cap) return cap;
fail:
    free(g->strong); free(g->weak); free(g->hubs); free(g->cands);
    free(g);
    return NULL;
}

/* ------------------------------------------------------------------------------------ */
/* one search: level sets                                                                */
/* ------------------------------------------------------------------------------------ */
typedef struct {
    Py_ssize_t n, w, count;
    word *f, *t;            /* count * w: the false and true level sets */
} Levels;

static void levels_free(PyObject *cap) {
    Levels *l = (Levels *)PyCapsule_GetPointer(cap, "chain_levels");
    if (!l) { PyErr_Clear(); return; }
    free(l->f); free(l->t);
    free(l);
}

static void levels_release(Levels *l) {
    if (!l) return;
    free(l->f); free(l->t);
    free(l);
}

/* chains._bfs from s: the levels (NULL with an exception set) */
static Levels *do_search(const Graph *g, Py_ssize_t s, int start_true, Py_ssize_t ml) {
    if (ml < 0) ml = 0;
    if (ml > MAXLEN) ml = MAXLEN;
    Py_ssize_t w = g->w;
    Levels *l = calloc(1, sizeof(Levels));
    word *vf = calloc((size_t)w * 4, sizeof(word));
    if (!l || !vf) { free(l); free(vf); PyErr_NoMemory(); return NULL; }
    word *vt = vf + w, *nt = vf + 2 * w, *nf = vf + 3 * w;
    Py_ssize_t cap_levels = 8;
    l->n = g->n;
    l->w = w;
    l->f = calloc((size_t)cap_levels * w, sizeof(word));
    l->t = calloc((size_t)cap_levels * w, sizeof(word));
    if (!l->f || !l->t) goto nomem;
    if (start_true) l->t[s / 64] |= (word)1 << (s % 64);
    else l->f[s / 64] |= (word)1 << (s % 64);
    memcpy(vf, l->f, w * sizeof(word));
    memcpy(vt, l->t, w * sizeof(word));
    l->count = 1;
    for (Py_ssize_t it = 0; it < ml; it++) {
        const word *ff = l->f + (l->count - 1) * w, *ft = l->t + (l->count - 1) * w;
        memset(nt, 0, 2 * w * sizeof(word));
        /* a false node without a strong link implies nothing: expand the hubs only */
        for (Py_ssize_t k = 0; k < w; k++) {
            word b = ff[k] & g->hubs[k];
            while (b) {
                Py_ssize_t i = k * 64 + ctz(b);
                b &= b - 1;
                const word *row = g->strong + i * w;
                for (Py_ssize_t q = 0; q < w; q++) nt[q] |= row[q];
            }
            b = ft[k];
            while (b) {
                Py_ssize_t i = k * 64 + ctz(b);
                b &= b - 1;
                const word *row = g->weak + i * w;
                for (Py_ssize_t q = 0; q < w; q++) nf[q] |= row[q];
            }
        }
        word any = 0;
        for (Py_ssize_t q = 0; q < w; q++) {
            nt[q] &= ~vt[q];
            nf[q] &= ~vf[q];
            any |= nt[q] | nf[q];
        }
        if (!any) break;
        if (l->count == cap_levels) {
            cap_levels *= 2;
            word *a = realloc(l->f, (size_t)cap_levels * w * sizeof(word));
            if (!a) goto nomem;
            l->f = a;
            a = realloc(l->t, (size_t)cap_levels * w * sizeof(word));
            if (!a) goto nomem;
            l->t = a;
        }
        word *lf = l->f + l->count * w, *lt = l->t + l->count * w;
        for (Py_ssize_t q = 0; q < w; q++) {
            vt[q] |= nt[q];
            vf[q] |= nf[q];
            lf[q] = nf[q];
            lt[q] = nt[q];
        }
        l->count++;
    }
    free(vf);
    return l;
nomem:
    PyErr_NoMemory();
    free(vf);
    levels_release(l);
    return NULL;
}

/* reached: the nodes with the opposite value after the start level, into out (w words) */
static void do_reached(const Levels *l, int start_true, word *out) {
    Py_ssize_t w = l->w;
    memset(out, 0, w * sizeof(word));
    for (Py_ssize_t i = 1; i < l->count; i++) {
        const word *src = (start_true ? l->f : l->t) + i * w;
        for (Py_ssize_t q = 0; q < w; q++) out[q] |= src[q];
    }
}

/* chains._path into ids/vals (from the node back to the start: the caller reverses);
 * returns the length, 0 when the node is not reached, -1 on a broken level set; ids and
 * vals hold l->count entries */
static Py_ssize_t do_path(const Graph *g, const Levels *l, Py_ssize_t node, int value,
                          Py_ssize_t *ids, char *vals) {
    Py_ssize_t w = g->w, k = -1;
    word bit = (word)1 << (node % 64);
    for (Py_ssize_t i = 0; i < l->count; i++) {
        const word *x = (value ? l->t : l->f) + i * w;
        if (x[node / 64] & bit) { k = i; break; }
    }
    if (k < 0) return 0;
    ids[0] = node;
    vals[0] = (char)value;
    Py_ssize_t len = 1, cur = node;
    int val = value;
    for (Py_ssize_t i = k - 1; i >= 0; i--) {
        const word *lv = (val ? l->f : l->t) + i * w;
        const word *row = (val ? g->strong : g->weak) + cur * w;
        Py_ssize_t found = -1;
        int done = 0;
        for (Py_ssize_t q = 0; q < w && !done; q++) {
            word b = lv[q] & row[q];
            while (b) {
                Py_ssize_t j = q * 64 + ctz(b);
                b &= b - 1;
                int used = 0;
                for (Py_ssize_t u = 0; u < len; u++)
                    if (ids[u] == j) { used = 1; break; }
                if (!used) { found = j; done = 1; break; }
                if (found < 0) found = j;
            }
        }
        if (found < 0) return -1;
        cur = found;
        val = !val;
        ids[len] = cur;
        vals[len] = (char)val;
        len++;
    }
    return len;
}

/* [(node, value), ...] from the start (ids/vals reversed); NULL with an exception set */
static PyObject *path_list(const Py_ssize_t *ids, const char *vals, Py_ssize_t len) {
    PyObject *out = PyList_New(len);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_ssize_t src = len - 1 - i;
        PyObject *t = Py_BuildValue("(nO)", ids[src], vals[src] ? Py_True : Py_False);
        if (!t) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

PyDoc_STRVAR(search_doc,
"search(graph, s, start_true, max_length) -> (levels, reached)\n\n"
"chains._bfs from node s taken true (start_true) or false, then chains._search's\n"
"reached: the nodes reached with the opposite value after the start level. levels is\n"
"a context for path().");

static PyObject *k_search(PyObject *self, PyObject *args) {
    PyObject *cap;
    Py_ssize_t s, ml;
    int start_true;
    if (!PyArg_ParseTuple(args, "Onpn", &cap, &s, &start_true, &ml)) return NULL;
    Graph *g = get_graph(cap);
    if (!g) return NULL;
    if (s < 0 || s >= g->n) {
        PyErr_SetString(PyExc_ValueError, "_chain_kernel: start node out of range");
        return NULL;
    }
    Levels *l = do_search(g, s, start_true, ml);
    if (!l) return NULL;
    word *r = malloc((size_t)g->w * sizeof(word));
    if (!r) { levels_release(l); return PyErr_NoMemory(); }
    do_reached(l, start_true, r);
    PyObject *reached = from_words(r, g->w);
    free(r);
    if (!reached) { levels_release(l); return NULL; }
    PyObject *lcap = PyCapsule_New(l, "chain_levels", levels_free);
    if (!lcap) { Py_DECREF(reached); levels_release(l); return NULL; }
    PyObject *out = PyTuple_New(2);
    if (!out) { Py_DECREF(reached); Py_DECREF(lcap); return NULL; }
    PyTuple_SET_ITEM(out, 0, lcap);
    PyTuple_SET_ITEM(out, 1, reached);
    return out;
}

PyDoc_STRVAR(path_doc,
"path(graph, levels, node, value) -> [(node, value), ...]\n\n"
"chains._path: a shortest implication path from the search's start to node having value\n"
"(ValueError when not reached); each step back takes the lowest predecessor not on the\n"
"path yet, else the lowest.");

static PyObject *k_path(PyObject *self, PyObject *args) {
    PyObject *gcap, *lcap;
    Py_ssize_t node;
    int value;
    if (!PyArg_ParseTuple(args, "OOnp", &gcap, &lcap, &node, &value)) return NULL;
    Graph *g = get_graph(gcap);
    if (!g) return NULL;
    if (!PyCapsule_IsValid(lcap, "chain_levels")) {
        PyErr_SetString(PyExc_TypeError, "_chain_kernel: not a levels context");
        return NULL;
    }
    Levels *l = (Levels *)PyCapsule_GetPointer(lcap, "chain_levels");
    if (l->n != g->n || l->w != g->w) {
        PyErr_SetString(PyExc_ValueError, "_chain_kernel: levels of another graph");
        return NULL;
    }
    if (node < 0 || node >= g->n) {
        PyErr_SetString(PyExc_ValueError, "node not reached");
        return NULL;
    }
    Py_ssize_t *ids = malloc((size_t)l->count * sizeof(Py_ssize_t));
    char *vals = malloc((size_t)l->count);
    if (!ids || !vals) { free(ids); free(vals); return PyErr_NoMemory(); }
    Py_ssize_t len = do_path(g, l, node, value, ids, vals);
    PyObject *out = NULL;
    if (len == 0) PyErr_SetString(PyExc_ValueError, "node not reached");
    else if (len < 0) PyErr_SetString(PyExc_AssertionError, "broken BFS levels");
    else out = path_list(ids, vals, len);
    free(ids); free(vals);
    return out;
}

PyDoc_STRVAR(loop_paths_doc,
"loop_paths(graph, starts, max_length) -> [(s, [path, ...]), ...]\n\n"
"The loops chains._continuous reads from the searches 's false' of the starts (ascending):\n"
"for each node t != s reached true and weakly linked to s (ascending), chains._path to t\n"
"true, kept when it has 4+ nodes, all different; only the starts with a loop are listed.");

/* the loops of one start appended to out as (s, [path, ...]); -1 with an exception set */
static int start_loops(const Graph *g, Py_ssize_t s, Py_ssize_t ml, PyObject *out) {
    Levels *l = do_search(g, s, 0, ml);
    if (!l) return -1;
    Py_ssize_t w = g->w;
    int rc = -1;
    word *ends = malloc((size_t)w * sizeof(word));
    Py_ssize_t *ids = malloc((size_t)l->count * sizeof(Py_ssize_t));
    char *vals = malloc((size_t)l->count);
    PyObject *paths = NULL;
    if (!ends || !ids || !vals) { PyErr_NoMemory(); goto done; }
    do_reached(l, 0, ends);
    const word *ws = g->weak + s * w;
    for (Py_ssize_t q = 0; q < w; q++) {
        word b = ends[q] & ws[q];
        if (q == s / 64) b &= ~((word)1 << (s % 64));
        while (b) {
            Py_ssize_t t = q * 64 + ctz(b);
            b &= b - 1;
            Py_ssize_t len = do_path(g, l, t, 1, ids, vals);
            if (len < 0) {
                PyErr_SetString(PyExc_AssertionError, "broken BFS levels");
                goto done;
            }
            if (len < 4) continue;
            int repeat = 0;
            for (Py_ssize_t i = 0; i < len && !repeat; i++)
                for (Py_ssize_t j = i + 1; j < len; j++)
                    if (ids[i] == ids[j]) { repeat = 1; break; }
            if (repeat) continue;
            if (!paths && !(paths = PyList_New(0))) goto done;
            PyObject *p = path_list(ids, vals, len);
            if (!p) goto done;
            int bad = PyList_Append(paths, p);
            Py_DECREF(p);
            if (bad < 0) goto done;
        }
    }
    if (paths) {
        PyObject *item = Py_BuildValue("(nO)", s, paths);
        if (!item) goto done;
        int bad = PyList_Append(out, item);
        Py_DECREF(item);
        if (bad < 0) goto done;
    }
    rc = 0;
done:
    Py_XDECREF(paths);
    free(ends); free(ids); free(vals);
    levels_release(l);
    return rc;
}

static PyObject *k_loop_paths(PyObject *self, PyObject *args) {
    PyObject *cap, *starts_o;
    Py_ssize_t ml;
    if (!PyArg_ParseTuple(args, "OOn", &cap, &starts_o, &ml)) return NULL;
    Graph *g = get_graph(cap);
    if (!g) return NULL;
    Py_ssize_t w = g->w;
    word *starts = malloc((size_t)w * sizeof(word));
    if (!starts) return PyErr_NoMemory();
    if (to_words(starts_o, starts, w) < 0) { free(starts); return NULL; }
    PyObject *out = PyList_New(0);
    if (!out) { free(starts); return NULL; }
    for (Py_ssize_t q = 0; q < w; q++) {
        word b = starts[q];
        while (b) {
            Py_ssize_t s = q * 64 + ctz(b);
            b &= b - 1;
            if (start_loops(g, s, ml, out) < 0) {
                Py_DECREF(out);
                free(starts);
                return NULL;
            }
        }
    }
    free(starts);
    return out;
}

PyDoc_STRVAR(closure_doc,
"closure(graph, sources, max_length) -> (selfloop, loop_cands, loop_ends) or None\n\n"
"chains._reach_closure over the hubs from the sources (hubs), read three ways:\n"
"selfloop, the sources s whose search 's false' reaches s true; loop_cands, what\n"
"chains._loop_cands gives (candidate nodes weakly linked to a source s and to a hub\n"
"t != s that s reaches true); loop_ends, the sources s reaching true a hub t != s weakly\n"
"linked to s (where a continuous nice loop can close). None past MAXHUBS hubs.");

/* closure: the starts in x (a hub's set) reach, through its links adj[e0..e1), each partner
 * v with the opposite value: the starts not yet in seen[v] go into next[v] (flag hn[v]);
 * 1 when any did */
static inline int spread(const word *x, const int32_t *adj, int32_t e0, int32_t e1,
                         const word *seen, word *next, char *hn, Py_ssize_t SW) {
    int any = 0;
    for (int32_t e = e0; e < e1; e++) {
        Py_ssize_t v = adj[e];
        const word *sv = seen + v * SW;
        word *dv = next + v * SW;
        for (Py_ssize_t q = 0; q < SW; q++) {
            word y = x[q] & ~sv[q];
            if (y) { dv[q] |= y; hn[v] = 1; any = 1; }
        }
    }
    return any;
}

static PyObject *k_closure(PyObject *self, PyObject *args) {
    PyObject *cap, *sources_o;
    Py_ssize_t ml;
    if (!PyArg_ParseTuple(args, "OOn", &cap, &sources_o, &ml)) return NULL;
    Graph *g = get_graph(cap);
    if (!g) return NULL;
    if (ml < 0) ml = 0;
    if (ml > MAXLEN) ml = MAXLEN;
    Py_ssize_t n = g->n, w = g->w;
    word *sources = calloc((size_t)w, sizeof(word));
    if (!sources) return PyErr_NoMemory();
    if (to_words(sources_o, sources, w) < 0) { free(sources); return NULL; }
    Py_ssize_t H = 0;
    for (Py_ssize_t q = 0; q < w; q++) {
        if (sources[q] & ~g->hubs[q]) {
            free(sources);
            PyErr_SetString(PyExc_ValueError, "_chain_kernel: a source is not a hub");
            return NULL;
        }
        H += __builtin_popcountll(g->hubs[q]);
    }
    if (H > MAXHUBS) { free(sources); Py_RETURN_NONE; }
    Py_ssize_t SW = H / 64 + 1;
    int32_t *pos = malloc((size_t)(n ? n : 1) * sizeof(int32_t));
    int32_t *order = malloc((size_t)(H ? H : 1) * sizeof(int32_t));
    int32_t *sst = malloc((size_t)(H + 1) * sizeof(int32_t));
    int32_t *wst = malloc((size_t)(H + 1) * sizeof(int32_t));
    word *sets = calloc((size_t)6 * H * SW + 1, sizeof(word));
    char *flags = calloc((size_t)4 * H + 1, 1);
    word *ne = calloc((size_t)(n ? n : 1) * SW, sizeof(word));   /* near_end */
    word *ns = calloc((size_t)(n ? n : 1) * SW, sizeof(word));   /* near_src */
    word *out = calloc((size_t)3 * w, sizeof(word));
    int32_t *sadj = NULL, *wadj = NULL;
    PyObject *result = NULL;
    if (!pos || !order || !sst || !wst || !sets || !flags || !ne || !ns || !out) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) pos[i] = -1;
    {
        Py_ssize_t h = 0;
        for (Py_ssize_t q = 0; q < w; q++) {
            word b = g->hubs[q];
            while (b) {
                Py_ssize_t v = q * 64 + ctz(b);
                b &= b - 1;
                pos[v] = (int32_t)h;
                order[h++] = (int32_t)v;
            }
        }
    }
    /* adjacency between hubs, by hub number: strong partners, weak partners that are hubs */
    Py_ssize_t ns_total = 0, nw_total = 0;
    for (Py_ssize_t h = 0; h < H; h++) {
        const word *sr = g->strong + (Py_ssize_t)order[h] * w;
        const word *wr = g->weak + (Py_ssize_t)order[h] * w;
        for (Py_ssize_t q = 0; q < w; q++) {
            ns_total += __builtin_popcountll(sr[q] & g->hubs[q]);
            nw_total += __builtin_popcountll(wr[q] & g->hubs[q]);
        }
    }
    sadj = malloc((size_t)(ns_total + 1) * sizeof(int32_t));
    wadj = malloc((size_t)(nw_total + 1) * sizeof(int32_t));
    if (!sadj || !wadj) { PyErr_NoMemory(); goto done; }
    {
        Py_ssize_t a = 0, b2 = 0;
        for (Py_ssize_t h = 0; h < H; h++) {
            const word *sr = g->strong + (Py_ssize_t)order[h] * w;
            const word *wr = g->weak + (Py_ssize_t)order[h] * w;
            sst[h] = (int32_t)a;
            wst[h] = (int32_t)b2;
            for (Py_ssize_t q = 0; q < w; q++) {
                word b = sr[q] & g->hubs[q];
                while (b) { sadj[a++] = pos[q * 64 + ctz(b)]; b &= b - 1; }
                b = wr[q] & g->hubs[q];
                while (b) { wadj[b2++] = pos[q * 64 + ctz(b)]; b &= b - 1; }
            }
        }
        sst[H] = (int32_t)a;
        wst[H] = (int32_t)b2;
    }
    word *fal = sets, *tru = sets + H * SW;
    word *gf = sets + 2 * H * SW, *gt = sets + 3 * H * SW;
    word *nt = sets + 4 * H * SW, *nf = sets + 5 * H * SW;
    char *hgf = flags, *hgt = flags + H, *hnt = flags + 2 * H, *hnf = flags + 3 * H;
    for (Py_ssize_t q = 0; q < w; q++) {
        word b = sources[q];
        while (b) {
            Py_ssize_t k = pos[q * 64 + ctz(b)];
            b &= b - 1;
            fal[k * SW + k / 64] |= (word)1 << (k % 64);
            gf[k * SW + k / 64] |= (word)1 << (k % 64);
            hgf[k] = 1;
        }
    }
    for (Py_ssize_t it = 0; it < ml; it++) {
        int any = 0;
        /* links are symmetric: a hub's strong partners reached false (weak partners
         * reached true) at the last level reach it true (false) at this one */
        for (Py_ssize_t u = 0; u < H; u++) {
            if (hgf[u])
                any |= spread(gf + u * SW, sadj, sst[u], sst[u + 1], tru, nt, hnt, SW);
            if (hgt[u])
                any |= spread(gt + u * SW, wadj, wst[u], wst[u + 1], fal, nf, hnf, SW);
        }
        if (!any) break;
        for (Py_ssize_t v = 0; v < H; v++) {
            if (hnt[v]) for (Py_ssize_t q = 0; q < SW; q++) tru[v * SW + q] |= nt[v * SW + q];
            if (hnf[v]) for (Py_ssize_t q = 0; q < SW; q++) fal[v * SW + q] |= nf[v * SW + q];
        }
        /* the new gains become the fronts; the old fronts are cleared for the next level */
        word *tmp = gt; gt = nt; nt = tmp;
        tmp = gf; gf = nf; nf = tmp;
        char *tc = hgt; hgt = hnt; hnt = tc;
        tc = hgf; hgf = hnf; hnf = tc;
        memset(nt, 0, (size_t)H * SW * sizeof(word));
        memset(nf, 0, (size_t)H * SW * sizeof(word));
        memset(hnt, 0, (size_t)H);
        memset(hnf, 0, (size_t)H);
    }
    word *selfloop = out, *lc = out + w, *lends = out + 2 * w;
    /* selfloop and loop_ends, per source */
    for (Py_ssize_t q = 0; q < w; q++) {
        word b = sources[q];
        while (b) {
            Py_ssize_t s = q * 64 + ctz(b);
            b &= b - 1;
            Py_ssize_t k = pos[s];
            word kb = (word)1 << (k % 64);
            if (tru[k * SW + k / 64] & kb) selfloop[q] |= (word)1 << (s % 64);
            for (int32_t e = wst[k]; e < wst[k + 1]; e++) {
                Py_ssize_t t = wadj[e];
                if (t != k && (tru[t * SW + k / 64] & kb)) {
                    lends[q] |= (word)1 << (s % 64);
                    break;
                }
            }
        }
    }
    /* loop_cands: near_end[c] |= by[t] minus t, near_src[c] |= t (t a source) for the
     * candidates c weakly linked to hub t */
    for (Py_ssize_t k = 0; k < H; k++) {
        Py_ssize_t t = order[k];
        const word *by = tru + k * SW;
        word kb = (word)1 << (k % 64);
        int src = (int)((sources[t / 64] >> (t % 64)) & 1);
        word anyend = 0;
        for (Py_ssize_t r = 0; r < SW; r++) anyend |= (r == k / 64) ? (by[r] & ~kb) : by[r];
        if (!anyend && !src) continue;
        const word *wr = g->weak + t * w;
        for (Py_ssize_t q = 0; q < w; q++) {
            word b = wr[q] & g->cands[q];
            while (b) {
                Py_ssize_t c = q * 64 + ctz(b);
                b &= b - 1;
                if (anyend) {
                    word *d = ne + c * SW;
                    for (Py_ssize_t r = 0; r < SW; r++)
                        d[r] |= (r == k / 64) ? (by[r] & ~kb) : by[r];
                }
                if (src) ns[c * SW + k / 64] |= kb;
            }
        }
    }
    for (Py_ssize_t c = 0; c < n; c++) {
        const word *a = ne + c * SW, *b = ns + c * SW;
        for (Py_ssize_t r = 0; r < SW; r++)
            if (a[r] & b[r]) { lc[c / 64] |= (word)1 << (c % 64); break; }
    }
    {
        PyObject *a = from_words(selfloop, w);
        PyObject *b = a ? from_words(lc, w) : NULL;
        PyObject *c = b ? from_words(lends, w) : NULL;
        if (a && b && c) result = PyTuple_Pack(3, a, b, c);
        Py_XDECREF(a); Py_XDECREF(b); Py_XDECREF(c);
    }
done:
    free(sources); free(pos); free(order); free(sst); free(wst); free(sets); free(flags);
    free(ne); free(ns); free(out); free(sadj); free(wadj);
    return result;
}


/* ------------------------------------------------------------------------------------ */
/* building the graph (chains._build without ALS nodes and cross-digit links)            */
/* ------------------------------------------------------------------------------------ */
#define MAXCELLS 128
#define MAXDIGITS 31

typedef struct {
    int size, n;
    u128 *peers;            /* (n + 1) * size: peers_d[d][c] */
    int nfull;
    u128 *full;             /* the full houses' cell masks */
    int ninter;
    u128 *inter;            /* ninter: intersections of 2+ full houses */
    int *ih_start;          /* ninter + 1 */
    u128 *ih;               /* the masks of each intersection's houses */
} Layout;

static void layout_free(PyObject *cap) {
    Layout *l = (Layout *)PyCapsule_GetPointer(cap, "chain_layout");
    if (!l) { PyErr_Clear(); return; }
    free(l->peers); free(l->full); free(l->inter); free(l->ih_start); free(l->ih);
    free(l);
}

PyDoc_STRVAR(layout_doc,
"layout(size, n, peers_d, full_masks, intersections) -> context or None\n\n"
"The static tables of a puzzle for build(): peers_d[d][c] (d = 0..n), the full houses'\n"
"cell masks, the intersections [(mask, [house masks])]. None past 128 cells or 31\n"
"digits (the Python build).");

static PyObject *k_layout(PyObject *self, PyObject *args) {
    Py_ssize_t size, n;
    PyObject *peers, *full, *inters;
    if (!PyArg_ParseTuple(args, "nnO!O!O!", &size, &n, &PyList_Type, &peers, &PyList_Type,
                          &full, &PyList_Type, &inters))
        return NULL;
    if (size < 1 || n < 1 || size > MAXCELLS || n > MAXDIGITS) Py_RETURN_NONE;
    if (PyList_GET_SIZE(peers) != n + 1) {
        PyErr_SetString(PyExc_ValueError, "_chain_kernel: peers_d needs n + 1 rows");
        return NULL;
    }
    Layout *l = calloc(1, sizeof(Layout));
    if (!l) return PyErr_NoMemory();
    l->size = (int)size;
    l->n = (int)n;
    Py_ssize_t nf = PyList_GET_SIZE(full), ni = PyList_GET_SIZE(inters), nh = 0;
    for (Py_ssize_t k = 0; k < ni; k++) {
        PyObject *it = PyList_GET_ITEM(inters, k);
        if (!PyTuple_Check(it) || PyTuple_GET_SIZE(it) != 2
                || !PyList_Check(PyTuple_GET_ITEM(it, 1))) {
            PyErr_SetString(PyExc_TypeError, "_chain_kernel: intersections: (mask, [masks])");
            goto fail;
        }
        nh += PyList_GET_SIZE(PyTuple_GET_ITEM(it, 1));
    }
    l->peers = calloc((size_t)(n + 1) * size, sizeof(u128));
    l->full = calloc((size_t)nf + 1, sizeof(u128));
    l->inter = calloc((size_t)ni + 1, sizeof(u128));
    l->ih_start = calloc((size_t)ni + 1, sizeof(int));
    l->ih = calloc((size_t)nh + 1, sizeof(u128));
    if (!l->peers || !l->full || !l->inter || !l->ih_start || !l->ih) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t d = 0; d <= n; d++) {
        PyObject *row = PyList_GET_ITEM(peers, d);
        if (!PyList_Check(row) || PyList_GET_SIZE(row) != size) {
            PyErr_SetString(PyExc_ValueError, "_chain_kernel: a peers_d row of the wrong size");
            goto fail;
        }
        for (Py_ssize_t c = 0; c < size; c++)
            if (to_u128(PyList_GET_ITEM(row, c), &l->peers[d * size + c]) < 0) goto fail;
    }
    l->nfull = (int)nf;
    for (Py_ssize_t k = 0; k < nf; k++)
        if (to_u128(PyList_GET_ITEM(full, k), &l->full[k]) < 0) goto fail;
    l->ninter = (int)ni;
    int h = 0;
    for (Py_ssize_t k = 0; k < ni; k++) {
        PyObject *it = PyList_GET_ITEM(inters, k);
        if (to_u128(PyTuple_GET_ITEM(it, 0), &l->inter[k]) < 0) goto fail;
        PyObject *hs = PyTuple_GET_ITEM(it, 1);
        l->ih_start[k] = h;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(hs); j++)
            if (to_u128(PyList_GET_ITEM(hs, j), &l->ih[h++]) < 0) goto fail;
    }
    l->ih_start[ni] = h;
    PyObject *cap = PyCapsule_New(l, "chain_layout", layout_free);
    if (cap) return cap;
fail:
    free(l->peers); free(l->full); free(l->inter); free(l->ih_start); free(l->ih);
    free(l);
    return NULL;
}

static inline void setbit(word *row, Py_ssize_t i) { row[i / 64] |= (word)1 << (i % 64); }

PyDoc_STRVAR(build_doc,
"build(layout, dsmask, cand, cells_with, unsolved, house, bivalue, cell_weak, groups)\n"
"    -> (groups, strong, weak, cands, hubs, context) or None\n\n"
"chains._build without ALS nodes and cross-digit links: the group nodes [(digit, cells)]\n"
"in the order of the Python code (after the candidate slots (d - 1) * size + cell),\n"
"strong and weak (lists of bitsets of node indices), the candidate and hub bitsets and\n"
"the graph context of search() and closure(). None past MAXNODES nodes.");

static PyObject *k_build(PyObject *self, PyObject *args) {
    PyObject *lcap, *cand_o, *cw_o, *unsolved_o;
    unsigned long dsmask_l;
    int house, bivalue, cell_weak, groups;
    if (!PyArg_ParseTuple(args, "OkO!O!Opppp", &lcap, &dsmask_l, &PyList_Type, &cand_o,
                          &PyList_Type, &cw_o, &unsolved_o, &house, &bivalue, &cell_weak,
                          &groups))
        return NULL;
    if (!PyCapsule_IsValid(lcap, "chain_layout")) {
        PyErr_SetString(PyExc_TypeError, "_chain_kernel: not a layout context");
        return NULL;
    }
    Layout *L = (Layout *)PyCapsule_GetPointer(lcap, "chain_layout");
    const int size = L->size, n = L->n;
    if (PyList_GET_SIZE(cand_o) != size || PyList_GET_SIZE(cw_o) != n + 1) {
        PyErr_SetString(PyExc_ValueError, "_chain_kernel: cand or cells_with of the wrong size");
        return NULL;
    }
    uint32_t dsmask = (uint32_t)(dsmask_l & (((uint64_t)2 << n) - 2));
    uint32_t cand[MAXCELLS];
    u128 cw[MAXDIGITS + 1], unsolved;
    for (int c = 0; c < size; c++) {
        unsigned long v = PyLong_AsUnsignedLong(PyList_GET_ITEM(cand_o, c));
        if (v == (unsigned long)-1 && PyErr_Occurred()) return NULL;
        cand[c] = (uint32_t)v & (((uint32_t)2 << n) - 2);
    }
    for (int d = 0; d <= n; d++)
        if (to_u128(PyList_GET_ITEM(cw_o, d), &cw[d]) < 0) return NULL;
    if (to_u128(unsolved_o, &unsolved) < 0) return NULL;
    const u128 allcells = size == 128 ? ~(u128)0 : (((u128)1 << size) - 1);
    unsolved &= allcells;
    for (int d = 0; d <= n; d++) cw[d] &= allcells;
    /* group nodes, in the Python order: digit, then intersection (first of equal masks) */
    const Py_ssize_t n0 = (Py_ssize_t)n * size;
    Py_ssize_t gcap = 64, G = 0;
    int *gd = NULL, *gk = NULL;
    u128 *gq = NULL;
    int gstart[MAXDIGITS + 2];
    memset(gstart, 0, sizeof(gstart));
    gd = malloc(gcap * sizeof(int));
    gk = malloc(gcap * sizeof(int));
    gq = malloc(gcap * sizeof(u128));
    Graph *g = NULL;
    PyObject *result = NULL;
    if (!gd || !gk || !gq) { PyErr_NoMemory(); goto done; }
    for (int d = 1; d <= n; d++) {
        gstart[d] = (int)G;
        if (!groups || !(dsmask >> d & 1)) continue;
        for (int k = 0; k < L->ninter; k++) {
            u128 q = L->inter[k] & cw[d];
            if (!(q & (q - 1))) continue;
            int dup = 0;
            for (Py_ssize_t x = gstart[d]; x < G; x++)
                if (gq[x] == q) { dup = 1; break; }
            if (dup) continue;
            if (G == gcap) {
                gcap *= 2;
                int *a = realloc(gd, gcap * sizeof(int));
                if (!a) { PyErr_NoMemory(); goto done; }
                gd = a;
                a = realloc(gk, gcap * sizeof(int));
                if (!a) { PyErr_NoMemory(); goto done; }
                gk = a;
                u128 *b = realloc(gq, gcap * sizeof(u128));
                if (!b) { PyErr_NoMemory(); goto done; }
                gq = b;
            }
            gd[G] = d;
            gk[G] = k;
            gq[G] = q;
            G++;
        }
    }
    gstart[n + 1] = (int)G;
    const Py_ssize_t N = n0 + G;
    if (N > MAXNODES) { result = Py_None; Py_INCREF(result); goto done; }
    const Py_ssize_t w = N / 64 + 1;
    g = calloc(1, sizeof(Graph));
    if (!g) { PyErr_NoMemory(); goto done; }
    g->n = N;
    g->w = w;
    g->strong = calloc((size_t)N * w, sizeof(word));
    g->weak = calloc((size_t)N * w, sizeof(word));
    g->hubs = calloc((size_t)w, sizeof(word));
    g->cands = calloc((size_t)w, sizeof(word));
    if (!g->strong || !g->weak || !g->hubs || !g->cands) { PyErr_NoMemory(); goto done; }
    word *S = g->strong, *W = g->weak;
    /* candidates and their weak links (one digit in cells seeing each other, the digits
     * of one cell) */
    for (int d = 1; d <= n; d++) {
        if (!(dsmask >> d & 1)) continue;
        const Py_ssize_t off = (Py_ssize_t)(d - 1) * size;
        const u128 cwd = cw[d];
        const u128 *pd = L->peers + (Py_ssize_t)d * size;
        for (u128 b = cwd; b; b &= b - 1) {
            int c = lowbit(b);
            Py_ssize_t i = off + c;
            setbit(g->cands, i);
            word *row = W + i * w;
            for (u128 p = pd[c] & cwd; p; p &= p - 1) setbit(row, off + lowbit(p));
            if (cell_weak && (unsolved >> c & 1)) {
                uint32_t m = cand[c] & dsmask;
                for (int e = 1; e <= n; e++)
                    if ((m >> e & 1) && e != d) setbit(row, (Py_ssize_t)(e - 1) * size + c);
            }
        }
    }
    if (bivalue) {
        for (u128 b = unsolved; b; b &= b - 1) {
            int c = lowbit(b);
            uint32_t m = cand[c];
            if (__builtin_popcount(m) == 2 && (m & dsmask) == m) {
                int d1 = __builtin_ctz(m), d2 = 31 - __builtin_clz(m);
                Py_ssize_t i = (Py_ssize_t)(d1 - 1) * size + c, j = (Py_ssize_t)(d2 - 1) * size + c;
                setbit(S + i * w, j);
                setbit(S + j * w, i);
            }
        }
    }
    if (house) {
        for (int h = 0; h < L->nfull; h++) {
            for (int d = 1; d <= n; d++) {
                if (!(dsmask >> d & 1)) continue;
                u128 p = L->full[h] & cw[d];
                if (popc(p) != 2) continue;
                Py_ssize_t off = (Py_ssize_t)(d - 1) * size;
                Py_ssize_t i = off + lowbit(p), j = off + lowbit(p & (p - 1));
                setbit(S + i * w, j);
                setbit(S + j * w, i);
            }
        }
    }
    for (int d = 1; d <= n; d++) {
        const Py_ssize_t off = (Py_ssize_t)(d - 1) * size;
        const u128 cwd = cw[d];
        const u128 *pd = L->peers + (Py_ssize_t)d * size;
        for (Py_ssize_t x = gstart[d]; x < gstart[d + 1]; x++) {
            Py_ssize_t gi = n0 + x;
            u128 q = gq[x], common = ~(u128)0;
            for (u128 b = q; b; b &= b - 1) common &= pd[lowbit(b)];
            common &= cwd & ~q;
            word *row = W + gi * w;
            for (u128 b = common; b; b &= b - 1) {
                Py_ssize_t o = off + lowbit(b);
                setbit(W + o * w, gi);
                setbit(row, o);
            }
            for (Py_ssize_t y = gstart[d]; y < gstart[d + 1]; y++)
                if (!(gq[y] & ~common)) setbit(row, n0 + y);
            if (!house) continue;
            int k = gk[x];
            for (int hh = L->ih_start[k]; hh < L->ih_start[k + 1]; hh++) {
                u128 rest = (L->ih[hh] & cwd) & ~q;
                if (!rest) continue;
                Py_ssize_t j;
                if (!(rest & (rest - 1))) {
                    j = off + lowbit(rest);
                } else {
                    j = -1;
                    for (Py_ssize_t y = gstart[d]; y < gstart[d + 1]; y++)
                        if (gq[y] == rest) { j = n0 + y; break; }
                    if (j < 0) continue;
                }
                setbit(S + gi * w, j);
                setbit(S + j * w, gi);
            }
        }
    }
    for (Py_ssize_t i = 0; i < N; i++) {
        const word *row = S + i * w;
        for (Py_ssize_t q = 0; q < w; q++)
            if (row[q]) { setbit(g->hubs, i); break; }
    }
    {
        PyObject *glist = PyList_New(G), *sl = PyList_New(N), *wl = PyList_New(N);
        PyObject *cands = NULL, *hubs = NULL, *cap = NULL;
        if (!glist || !sl || !wl) goto out_fail;
        for (Py_ssize_t x = 0; x < G; x++) {
            PyObject *qo = PyLong_FromUnsignedLongLong((unsigned long long)(uint64_t)gq[x]);
            if (qo && (gq[x] >> 64)) {
                Py_DECREF(qo);
                qo = from_u128(gq[x]);
            }
            if (!qo) goto out_fail;
            PyObject *t = Py_BuildValue("(iN)", gd[x], qo);
            if (!t) goto out_fail;
            PyList_SET_ITEM(glist, x, t);
        }
        for (Py_ssize_t i = 0; i < N; i++) {
            PyObject *a = from_words(S + i * w, w);
            if (!a) goto out_fail;
            PyList_SET_ITEM(sl, i, a);
            a = from_words(W + i * w, w);
            if (!a) goto out_fail;
            PyList_SET_ITEM(wl, i, a);
        }
        cands = from_words(g->cands, w);
        hubs = cands ? from_words(g->hubs, w) : NULL;
        if (!hubs) goto out_fail;
        cap = PyCapsule_New(g, "chain_graph", graph_free);
        if (!cap) goto out_fail;
        g = NULL;   /* owned by the capsule */
        result = PyTuple_Pack(6, glist, sl, wl, cands, hubs, cap);
    out_fail:
        Py_XDECREF(glist); Py_XDECREF(sl); Py_XDECREF(wl);
        Py_XDECREF(cands); Py_XDECREF(hubs); Py_XDECREF(cap);
    }
done:
    free(gd); free(gk); free(gq);
    if (g) {
        free(g->strong); free(g->weak); free(g->hubs); free(g->cands);
        free(g);
    }
    return result;
}

static PyMethodDef methods[] = {
    {"layout", k_layout, METH_VARARGS, layout_doc},
    {"build", k_build, METH_VARARGS, build_doc},
    {"graph", k_graph, METH_VARARGS, graph_doc},
    {"search", k_search, METH_VARARGS, search_doc},
    {"path", k_path, METH_VARARGS, path_doc},
    {"closure", k_closure, METH_VARARGS, closure_doc},
    {"loop_paths", k_loop_paths, METH_VARARGS, loop_paths_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_chain_kernel",
    "The implication searches of techniques/chains.py in C (see the source's header).",
    -1, methods,
};

PyMODINIT_FUNC PyInit__chain_kernel(void) {
    if (u128_init() < 0) return NULL;
    return PyModule_Create(&module);
}
