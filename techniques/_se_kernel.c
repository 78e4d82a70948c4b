/* SE probe chains (techniques/forcing/nested.py): Sudoku Explainer's static forcing
 * chains on one (hypothetical) grid, as bitmasks, for the level probe of the SE rating.
 *
 * The compiled form of se_reach (unary chains "X true => X false", breadth first in
 * waves of facts) and of the candidate scan of _level_closure / _base_closures. The
 * pure-Python code in techniques/forcing/nested.py stays the reference and the fallback
 * (csp/kernel.py): both give identical results, which tests/techniques/test_se_kernel.py
 * checks on many grids.
 *
 * Grids: at most 128 cells and 15 digits (a cell mask is two uint64 words); the caller
 * takes the Python path for anything larger. Every argument is checked; a bad one raises
 * a Python exception (never a crash).
 *
 * Interface (ints, lists, dicts in; tuples out):
 *   static_new(size, n, peers_d, full_masks) -> capsule
 *       peers_d: n + 1 lists of size ints (peers_d[d][c], cells seeing c for digit d);
 *       full_masks: the cell masks of the full houses (in the order of _Static.full).
 *   reach(static, cand, cw, unsolved, c0, d0) -> (nodes, on packed, off packed)
 *   scan(static, cand, cw, unsolved, cells, least, prev, fresh, gone, level, left,
 *        base_cw=None) -> (ok, left, found, closures)
 *       found: [(cell, digit, nodes, waves)] of the candidates whose unary chain exists
 *       (waves as se_reach gives them, per digit 0..n; None past 512 waves); with
 *       base_cw (the state's own grid, cells per digit 0..n), [(cell, digit, nodes,
 *       rule facts)]: nested._rule_facts of the chain to "cell <> digit" (a tuple of
 *       fact ints), or the waves list / None as above past 512 waves;
 *       closures: a Closures object (C memory, immutable): the Python path's dict
 *       {cell << 5 | digit: (off packed, on packed, stale)} as to_dict() gives it; prev
 *       may be one (its entries are shared, not copied) or such a dict; ok False when
 *       the search budget ``left`` (None: no limit) ran out (then found and closures are
 *       empty); left: the searches left (None when no limit).
 *   forcing(static, cand, cw, unsolved, on, closures, min_cell=3) -> {fact: (nodes, group)}
 *       SE's static cell and region forcing chains from the closures (a Closures or the
 *       dict; nested._forcing's conclusions, in its order).
 *   news(static, before, cand, cw) -> (gone packed, fresh packed)   (nested._news)
 *   closures(static, dict) -> Closures   (the dict in C memory)
 * "packed": per-digit cell masks as one int, digit d's cells from bit d * size
 * (nested._pack).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAXCELLS 128
#define MAXDIG 15
#define ND (MAXDIG + 1)
#define MAXHOUSES 1024
/* packed ints: at most ND * MAXCELLS bits */
#define PWORDS ((ND * MAXCELLS + 63) / 64)

typedef struct { uint64_t w[2]; } M;

typedef struct {
    int size, n, nfull;
    M peers[ND][MAXCELLS];
    M full[MAXHOUSES];
} Static;

typedef struct {
    const Static *st;
    uint32_t cand[MAXCELLS];
    M cw[ND];
    M bivm[ND];
    M bl[ND];
    M partner[ND][MAXCELLS];
    M unsolved;
    int linked;            /* bivm, bl, partner made (grid_links): only a search reads them */
} Grid;

/* popcount without a libgcc call where the compiler may not use the instruction (-O2
 * without -mpopcnt: __builtin_popcount is a function call there) */
#if defined(__POPCNT__) || !defined(__GNUC__)
static inline int pc64(uint64_t x) { return __builtin_popcountll(x); }
#else
static inline int pc64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#endif

static inline int m_any(M a) { return (a.w[0] | a.w[1]) != 0; }
static inline M m_and(M a, M b) { M r = {{a.w[0] & b.w[0], a.w[1] & b.w[1]}}; return r; }
static inline M m_andnot(M a, M b) { M r = {{a.w[0] & ~b.w[0], a.w[1] & ~b.w[1]}}; return r; }
static inline void m_or(M *a, M b) { a->w[0] |= b.w[0]; a->w[1] |= b.w[1]; }
static inline int m_has(M a, int c) { return (int)((a.w[c >> 6] >> (c & 63)) & 1); }
static inline void m_set(M *a, int c) { a->w[c >> 6] |= (uint64_t)1 << (c & 63); }
static inline int m_count(M a) { return pc64(a.w[0]) + pc64(a.w[1]); }
static inline int m_low(M a) {
    return a.w[0] ? __builtin_ctzll(a.w[0]) : 64 + __builtin_ctzll(a.w[1]);
}
static inline void m_clear_low(M *a) {
    if (a->w[0]) a->w[0] &= a->w[0] - 1; else a->w[1] &= a->w[1] - 1;
}
static inline int popc32(uint32_t x) { return pc64(x); }
static inline int high32(uint32_t x) { return 31 - __builtin_clz(x); }

/* ---- Python int <-> bits ---------------------------------------------------------- */
static int as_bytes(PyObject *o, unsigned char *buf, size_t nbytes) {
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "_se_kernel: expected an int");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t r = PyLong_AsNativeBytes(o, buf, (Py_ssize_t)nbytes,
                                        Py_ASNATIVEBYTES_LITTLE_ENDIAN |
                                        Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                        Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (r < 0) return -1;
    if ((size_t)r > nbytes) {
        PyErr_SetString(PyExc_OverflowError, "_se_kernel: mask too large");
        return -1;
    }
    return 0;
#else
    /* (raises OverflowError for a negative int or one that does not fit) */
    return _PyLong_AsByteArray((PyLongObject *)o, buf, nbytes, 1, 0);
#endif
}

static PyObject *from_bytes(const unsigned char *buf, size_t nbytes) {
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(buf, (Py_ssize_t)nbytes, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(buf, nbytes, 1, 0);
#endif
}

static int to_words(PyObject *o, uint64_t *w, int nw);

/* a cell mask of a grid of ``size`` cells */
static int to_mask(PyObject *o, M *out, int size) {
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "_se_kernel: expected an int");
        return -1;
    }
    if (to_words(o, out->w, 2) < 0) return -1;
    if (size < 128) {
        M lim = {{size >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << size) - 1,
                  size <= 64 ? 0 : ((uint64_t)1 << (size - 64)) - 1}};
        if (m_any(m_andnot(*out, lim))) {
            PyErr_SetString(PyExc_ValueError, "_se_kernel: cell outside the grid");
            return -1;
        }
    }
    return 0;
}

/* per-digit masks 0..n as one int, digit d from bit d * size */
static PyObject *pack(const M *masks, int n, int size) {
    uint64_t words[PWORDS];
    unsigned char bytes[PWORDS * 8];
    memset(words, 0, sizeof words);
    for (int d = 0; d <= n; d++) {
        M m = masks[d];
        while (m_any(m)) {
            int c = m_low(m);
            m_clear_low(&m);
            int i = d * size + c;
            words[i >> 6] |= (uint64_t)1 << (i & 63);
        }
    }
    size_t nbits = (size_t)(n + 1) * size;
    size_t nw = (nbits + 63) / 64;
    for (size_t i = 0; i < nw; i++)
        for (int j = 0; j < 8; j++) bytes[i * 8 + j] = (unsigned char)(words[i] >> (8 * j));
    return from_bytes(bytes, nw * 8);
}

/* ---- the static tables ------------------------------------------------------------- */
static void static_free(PyObject *cap) {
    void *p = PyCapsule_GetPointer(cap, "se_kernel.static");
    if (p) PyMem_Free(p);
}

static PyObject *static_new(PyObject *self, PyObject *args) {
    int size, n;
    PyObject *peers, *fulls;
    if (!PyArg_ParseTuple(args, "iiOO", &size, &n, &peers, &fulls)) return NULL;
    if (size < 1 || size > MAXCELLS || n < 1 || n > MAXDIG) {
        PyErr_SetString(PyExc_ValueError, "_se_kernel: grid too large (at most 128 cells, 15 digits)");
        return NULL;
    }
    if (!PyList_Check(peers) || PyList_GET_SIZE(peers) != n + 1 || !PyList_Check(fulls) ||
        PyList_GET_SIZE(fulls) > MAXHOUSES) {
        PyErr_SetString(PyExc_ValueError, "_se_kernel: bad peers_d or full house masks");
        return NULL;
    }
    Static *st = PyMem_Calloc(1, sizeof(Static));
    if (!st) return PyErr_NoMemory();
    st->size = size;
    st->n = n;
    for (int d = 0; d <= n; d++) {
        PyObject *row = PyList_GET_ITEM(peers, d);
        if (!PyList_Check(row) || PyList_GET_SIZE(row) != size) {
            PyErr_SetString(PyExc_ValueError, "_se_kernel: bad peers_d row");
            PyMem_Free(st);
            return NULL;
        }
        for (int c = 0; c < size; c++)
            if (to_mask(PyList_GET_ITEM(row, c), &st->peers[d][c], size) < 0) {
                PyMem_Free(st);
                return NULL;
            }
    }
    st->nfull = (int)PyList_GET_SIZE(fulls);
    for (int h = 0; h < st->nfull; h++)
        if (to_mask(PyList_GET_ITEM(fulls, h), &st->full[h], size) < 0) {
            PyMem_Free(st);
            return NULL;
        }
    PyObject *cap = PyCapsule_New(st, "se_kernel.static", static_free);
    if (!cap) PyMem_Free(st);
    return cap;
}

/* ---- one grid: its strong links (nested._SELinks) ------------------------------------ */
static int grid_load(Grid *g, PyObject *cap, PyObject *cand, PyObject *cw, PyObject *unsolved_o) {
    const Static *st = PyCapsule_GetPointer(cap, "se_kernel.static");
    if (!st) return -1;
    g->st = st;
    int size = st->size, n = st->n;
    if (!PyList_Check(cand) || PyList_GET_SIZE(cand) != size || !PyList_Check(cw) ||
        PyList_GET_SIZE(cw) != n + 1) {
        PyErr_SetString(PyExc_ValueError, "_se_kernel: cand needs one int per cell, cw one per digit 0..n");
        return -1;
    }
    uint32_t lim = (uint32_t)((1u << (n + 1)) - 1);
    for (int c = 0; c < size; c++) {
        PyObject *o = PyList_GET_ITEM(cand, c);
        if (!PyLong_Check(o)) {
            PyErr_SetString(PyExc_TypeError, "_se_kernel: cand: expected ints");
            return -1;
        }
        long v = PyLong_AsLong(o);
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || ((unsigned long)v & ~(unsigned long)lim)) {
            PyErr_SetString(PyExc_ValueError, "_se_kernel: cand: digit out of range");
            return -1;
        }
        g->cand[c] = (uint32_t)v;
    }
    for (int d = 0; d <= n; d++)
        if (to_mask(PyList_GET_ITEM(cw, d), &g->cw[d], size) < 0) return -1;
    if (to_mask(unsolved_o, &g->unsolved, size) < 0) return -1;
    g->linked = 0;
    return 0;
}

/* the grid's strong links (bivalue cells, bilocal digits), made once before its first
 * search */
static void grid_links(Grid *g) {
    if (g->linked) return;
    g->linked = 1;
    const Static *st = g->st;
    int size = st->size, n = st->n;
    M unsolved = g->unsolved;
    memset(g->bivm, 0, sizeof g->bivm);
    memset(g->bl, 0, sizeof g->bl);
    for (int d = 0; d <= n; d++) memset(g->partner[d], 0, sizeof(M) * size);
    /* bivalue cells per digit (over the state's unsolved cells) */
    M u = unsolved;
    while (m_any(u)) {
        int c = m_low(u);
        m_clear_low(&u);
        uint32_t k = g->cand[c];
        if (popc32(k) == 2) {
            int e = __builtin_ctz(k), f = high32(k);
            m_set(&g->bivm[e], c);
            m_set(&g->bivm[f], c);
        }
    }
    /* bilocal digits per full house */
    for (int h = 0; h < st->nfull; h++) {
        for (int d = 1; d <= n; d++) {
            M pl = m_and(st->full[h], g->cw[d]);
            if (m_count(pl) == 2) {
                int a = m_low(pl);
                M r = pl;
                m_clear_low(&r);
                int b = m_low(r);
                m_or(&g->bl[d], pl);
                m_set(&g->partner[d][a], b);
                m_set(&g->partner[d][b], a);
            }
        }
    }
}

/* the waves of the last reach (se_reach's ``waves`` up to the chain's end): per wave, its
 * true facts and the false facts they imply, per digit; nw -1 when there were more than
 * MAXWAVES (the caller searches them again in Python) */
#define MAXWAVES 512
typedef struct {
    int nw;
    M on[MAXWAVES][ND];
    M off[MAXWAVES][ND];
} Waves;

/* The strong-link wave of a probe: each candidate that went off this wave (newoff) turns
 * on the other digit of its bivalue cell and the other end of its bi-location links; the
 * facts new to `on` are appended to (nc, nd). Returns how many. Shared by se_reach's
 * scan and reach_depths. */
static inline int strong_wave(const Grid *g, int n, const M *newoff, M *on,
                              uint8_t *nc, uint8_t *nd) {
    int k2 = 0;
    for (int d = 1; d <= n; d++) {
        M m = newoff[d];
        if (!m_any(m)) continue;
        M y = m_and(m, g->bivm[d]);
        while (m_any(y)) {
            int c = m_low(y);
            m_clear_low(&y);
            uint32_t rest = g->cand[c] & ~(1u << d);
            if (!rest) continue;      /* (never: a bivalue cell holding d) */
            int e = high32(rest);
            if (!m_has(on[e], c)) {
                m_set(&on[e], c);
                nc[k2] = (uint8_t)c;
                nd[k2] = (uint8_t)e;
                k2++;
            }
        }
        y = m_and(m, g->bl[d]);
        if (m_any(y)) {
            M z = {{0, 0}};
            while (m_any(y)) {
                int c = m_low(y);
                m_clear_low(&y);
                m_or(&z, g->partner[d][c]);
            }
            z = m_andnot(z, on[d]);
            m_or(&on[d], z);
            while (m_any(z)) {
                int c = m_low(z);
                m_clear_low(&z);
                nc[k2] = (uint8_t)c;
                nd[k2] = (uint8_t)d;
                k2++;
            }
        }
    }
    return k2;
}

/* se_reach(st, L, c0, d0) with on0 true, not full: the unary chain's nodes (0: none); the
 * true and false facts reached in on / off (per digit 0..n) */
static int reach(const Grid *g, int c0, int d0, M *on, M *off, Waves *wv) {
    const Static *st = g->st;
    int n = st->n;
    static uint8_t nc[2][ND * MAXCELLS], nd[2][ND * MAXCELLS];
    int cur = 0, nn = 1;
    M newoff[ND];
    memset(on, 0, sizeof(M) * (n + 1));
    memset(off, 0, sizeof(M) * (n + 1));
    m_set(&on[d0], c0);
    nc[0][0] = (uint8_t)c0;
    nd[0][0] = (uint8_t)d0;
    int dist = 0;
    if (wv) wv->nw = 0;
    /* each wave adds facts (on and off only grow): at most 2 * size * n waves */
    for (int guard = 0; guard <= 2 * ND * MAXCELLS + 2; guard++) {
        memset(newoff, 0, sizeof(M) * (n + 1));
        for (int i = 0; i < nn; i++) {
            int c = nc[cur][i], d = nd[cur][i];
            m_or(&newoff[d], m_and(st->peers[d][c], g->cw[d]));
            uint32_t k = g->cand[c] & ~(1u << d);
            while (k) {
                int e = __builtin_ctz(k);
                k &= k - 1;
                m_set(&newoff[e], c);
            }
        }
        int any = 0;
        for (int d = 1; d <= n; d++) {
            M p = newoff[d];
            if (m_any(p)) {
                p = m_andnot(p, off[d]);
                newoff[d] = p;
                if (m_any(p)) {
                    m_or(&off[d], p);
                    any = 1;
                }
            }
        }
        dist++;
        if (wv && wv->nw >= 0) {
            if (wv->nw < MAXWAVES) {
                M *a = wv->on[wv->nw];
                memset(a, 0, sizeof(M) * (n + 1));
                for (int i = 0; i < nn; i++) m_set(&a[nd[cur][i]], nc[cur][i]);
                memcpy(wv->off[wv->nw], newoff, sizeof(M) * (n + 1));
                wv->nw++;
            } else {
                wv->nw = -1;
            }
        }
        if (m_has(off[d0], c0)) return dist + 1;
        if (!any) return 0;
        int nxt = cur ^ 1;
        int k2 = strong_wave(g, n, newoff, on, nc[nxt], nd[nxt]);
        dist++;
        if (!k2) return 0;
        cur = nxt;
        nn = k2;
    }
    return 0;
}

/* se_reach(st, L, c0, d0, full=True) read as depths: per fact, the nodes of the chain to
 * it in its waves (nested._wave_depth: 2j + 1 for a true fact of wave j, 2j + 2 for a false
 * one; 0 when not reached) */
typedef struct {
    uint16_t on[ND][MAXCELLS];
    uint16_t off[ND][MAXCELLS];
} Depths;

static void reach_depths(const Grid *g, int c0, int d0, Depths *dp) {
    const Static *st = g->st;
    int n = st->n;
    static uint8_t nc[2][ND * MAXCELLS], nd[2][ND * MAXCELLS];
    int cur = 0, nn = 1;
    M on[ND], off[ND], newoff[ND];
    memset(dp, 0, sizeof(Depths));
    memset(on, 0, sizeof on);
    memset(off, 0, sizeof off);
    m_set(&on[d0], c0);
    nc[0][0] = (uint8_t)c0;
    nd[0][0] = (uint8_t)d0;
    for (int j = 0; j <= 2 * ND * MAXCELLS + 2; j++) {
        memset(newoff, 0, sizeof(M) * (n + 1));
        for (int i = 0; i < nn; i++) {
            int c = nc[cur][i], d = nd[cur][i];
            if (!dp->on[d][c]) dp->on[d][c] = (uint16_t)(2 * j + 1);
            m_or(&newoff[d], m_and(st->peers[d][c], g->cw[d]));
            uint32_t k = g->cand[c] & ~(1u << d);
            while (k) {
                int e = __builtin_ctz(k);
                k &= k - 1;
                m_set(&newoff[e], c);
            }
        }
        int any = 0;
        for (int d = 1; d <= n; d++) {
            M p = newoff[d];
            if (m_any(p)) {
                p = m_andnot(p, off[d]);
                newoff[d] = p;
                if (m_any(p)) {
                    m_or(&off[d], p);
                    any = 1;
                    M q = p;
                    while (m_any(q)) {
                        int c = m_low(q);
                        m_clear_low(&q);
                        if (!dp->off[d][c]) dp->off[d][c] = (uint16_t)(2 * j + 2);
                    }
                }
            }
        }
        if (!any) return;
        int nxt = cur ^ 1;
        int k2 = strong_wave(g, n, newoff, on, nc[nxt], nd[nxt]);
        if (!k2) return;
        cur = nxt;
        nn = k2;
    }
}

/* a packed int as words (at most PWORDS) */
static int to_words_bytes(PyObject *o, uint64_t *w, int nw);
static int to_words(PyObject *o, uint64_t *w, int nw) {
#if PY_VERSION_HEX < 0x030C0000 && PYLONG_BITS_IN_DIGIT == 30
    /* CPython up to 3.11: read the int's 30-bit digits (what the scan's old closures
     * cost most was the byte conversion); other versions take the byte path */
    if (PyLong_CheckExact(o)) {
        Py_ssize_t nd = Py_SIZE(o);
        if (nd >= 0 && nd <= (Py_ssize_t)nw * 64 / 30 + 1) {
            const digit *dg = ((PyLongObject *)o)->ob_digit;
            memset(w, 0, sizeof(uint64_t) * (size_t)nw);
            for (Py_ssize_t i = 0; i < nd; i++) {
                uint64_t v = dg[i];
                if (!v) continue;
                size_t bit = (size_t)i * 30;
                size_t k = bit >> 6, sh = bit & 63;
                if (k >= (size_t)nw) goto slow;
                w[k] |= v << sh;
                if (sh > 34) {                 /* the digit's top bits in the next word */
                    uint64_t hi = v >> (64 - sh);
                    if (hi) {
                        if (k + 1 >= (size_t)nw) goto slow;
                        w[k + 1] |= hi;
                    }
                }
            }
            return 0;
        }
    }
slow:
#endif
    return to_words_bytes(o, w, nw);
}

static int to_words_bytes(PyObject *o, uint64_t *w, int nw) {
    unsigned char b[PWORDS * 8];
    memset(b, 0, sizeof b);
    if (as_bytes(o, b, (size_t)nw * 8) < 0) return -1;
    for (int i = 0; i < nw; i++) {
        uint64_t v = 0;
        for (int j = 7; j >= 0; j--) v = v << 8 | b[i * 8 + j];
        w[i] = v;
    }
    return 0;
}

/* a cell mask as a Python int */
static PyObject *mask_int(M m) {
    unsigned char b[16];
    for (int i = 0; i < 16; i++) b[i] = (unsigned char)(m.w[i >> 3] >> (8 * (i & 7)));
    return from_bytes(b, 16);
}

static PyObject *masks_list(const M *a, int n) {
    PyObject *l = PyList_New(n + 1);
    if (!l) return NULL;
    for (int d = 0; d <= n; d++) {
        PyObject *v = mask_int(a[d]);
        if (!v) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, d, v);
    }
    return l;
}

/* se_reach's waves: [(true masks, false masks) per wave], or None (too many: recorded none) */
static PyObject *waves_list(const Waves *wv, int n) {
    if (wv->nw < 0) Py_RETURN_NONE;
    PyObject *l = PyList_New(wv->nw);
    if (!l) return NULL;
    for (int j = 0; j < wv->nw; j++) {
        PyObject *a = masks_list(wv->on[j], n);
        PyObject *b = a ? masks_list(wv->off[j], n) : NULL;
        PyObject *t = b ? PyTuple_Pack(2, a, b) : NULL;
        Py_XDECREF(a);
        Py_XDECREF(b);
        if (!t) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, j, t);
    }
    return l;
}

static PyObject *py_reach(PyObject *self, PyObject *args) {
    PyObject *cap, *cand, *cw, *unsolved;
    int c0, d0;
    if (!PyArg_ParseTuple(args, "OOOOii", &cap, &cand, &cw, &unsolved, &c0, &d0)) return NULL;
    Grid *g = PyMem_Malloc(sizeof(Grid));
    if (!g) return PyErr_NoMemory();
    if (grid_load(g, cap, cand, cw, unsolved) < 0) {
        PyMem_Free(g);
        return NULL;
    }
    if (c0 < 0 || c0 >= g->st->size || d0 < 1 || d0 > g->st->n) {
        PyMem_Free(g);
        PyErr_SetString(PyExc_ValueError, "_se_kernel: cell or digit out of range");
        return NULL;
    }
    M on[ND], off[ND];
    grid_links(g);
    int nodes = reach(g, c0, d0, on, off, NULL);
    int n = g->st->n, size = g->st->size;
    PyMem_Free(g);
    PyObject *a = pack(on, n, size);
    PyObject *b = a ? pack(off, n, size) : NULL;
    PyObject *r = b ? Py_BuildValue("(iOO)", nodes, a, b) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    return r;
}

/* ``key`` (a fact: cell << 5 | digit) appended to ``out`` as a false fact (key << 1) unless
 * ``seen`` has it; -1 with an error set when the list cannot grow */
static int emit_key(PyObject *out, uint8_t *seen, int key) {
    if (seen[key]) return 0;
    seen[key] = 1;
    PyObject *v = PyLong_FromLong((long)key << 1);
    if (!v || PyList_Append(out, v) < 0) {
        Py_XDECREF(v);
        return -1;
    }
    Py_DECREF(v);
    return 0;
}

/* nested._rule_facts on the waves of the last reach (``wv``, its grid ``g``): along one
 * shortest chain to the fact (x, d, on), the candidates of the base grid ``basecw`` removed
 * on ``g`` that make the chain's strong links strong, as fact ints (cell << 5 | digit) << 1,
 * in the order the Python code finds them, each once; a tuple */
static PyObject *rule_facts(const Grid *g, const Waves *wv, const M *basecw, int x, int d,
                            int on) {
    const Static *st = g->st;
    int n = st->n;
    static uint8_t seen[MAXCELLS << 5];
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    int j = -1;
    for (int i = 0; i < wv->nw; i++) {
        if (on ? m_has(wv->on[i][d], x) : m_has(wv->off[i][d], x)) {
            j = i;          /* (_wave_depth 2i + 1 or 2i + 2, then (depth - 1) // 2) */
            break;
        }
    }
    if (j < 0) goto done;
    memset(seen, 0, sizeof seen);
    /* each pass either turns a false fact true (same wave) or steps a wave back */
    for (int guard = 0; guard <= 2 * wv->nw + 2; guard++) {
        if (!on) {
            /* a false fact: from a true one of the same wave (its cell, or a peer) */
            const M *a = wv->on[j];
            int found = 0;
            for (int e = 1; e <= n; e++)
                if (e != d && m_has(a[e], x)) {
                    d = e;
                    found = 1;
                    break;
                }
            if (!found) {
                M y = m_and(a[d], st->peers[d][x]);
                if (!m_any(y)) break;
                x = m_low(y);
            }
            on = 1;
            continue;
        }
        if (j == 0) break;
        /* a true fact of wave j: from a false one of wave j - 1 (a strong link) */
        const M *b = wv->off[j - 1];
        j--;
        uint32_t k = g->cand[x];
        if (popc32(k) == 2) {
            int e = high32(k & ~(1u << d));
            if (m_has(b[e], x)) {
                for (int r = 1; r <= n; r++) {
                    if (!m_has(basecw[r], x) || (k >> r & 1)) continue;
                    if (emit_key(out, seen, x << 5 | r) < 0) goto fail;
                }
                d = e;
                on = 0;
                continue;
            }
        }
        /* the other places of d in x's full houses where d has two places */
        M src = {{0, 0}};
        for (int h = 0; h < st->nfull; h++) {
            if (!m_has(st->full[h], x)) continue;
            M pl = m_and(st->full[h], g->cw[d]);
            if (m_has(pl, x) && m_count(pl) == 2) m_or(&src, pl);
        }
        M self_ = {{0, 0}};
        m_set(&self_, x);
        src = m_and(m_andnot(src, self_), b[d]);
        if (!m_any(src)) break;
        int y = m_low(src);
        for (int h = 0; h < st->nfull; h++) {
            if (!m_has(st->full[h], x) || !m_has(st->full[h], y) ||
                m_count(m_and(st->full[h], g->cw[d])) != 2)
                continue;
            M rem = m_andnot(m_and(st->full[h], basecw[d]), g->cw[d]);
            while (m_any(rem)) {
                int z = m_low(rem);
                m_clear_low(&rem);
                if (emit_key(out, seen, z << 5 | d) < 0) goto fail;
            }
            break;
        }
        x = y;
        on = 0;
    }
done:;
    PyObject *t = PyList_AsTuple(out);
    Py_DECREF(out);
    return t;
fail:
    Py_DECREF(out);
    return NULL;
}

/* ---- closures kept in C memory ------------------------------------------------------
 * The scan's closures (candidate -> the false and true facts its "true" reaches, and a
 * stale flag) as an immutable Python object: per candidate in ascending key order (cell
 * << 5 | digit), a shared, reference-counted entry with the facts as cell masks per
 * digit 0..n. A scan that keeps an old closure shares its entry (no copy, no Python int
 * read back or made); to_dict() gives the dict of the Python path ({key: (off packed, on
 * packed, stale)}), which scan and forcing also accept. */
typedef struct {
    Py_ssize_t refs;
    M m[];                 /* off[0..n], then on[0..n] */
} Entry;

typedef struct {
    PyObject_HEAD
    int size, n;
    Py_ssize_t count, cap;
    int32_t *keys;
    uint8_t *stale;
    Entry **ent;
} Closures;

static PyTypeObject ClosuresType;

static Entry *entry_new(int n, const M *off, const M *on) {
    Entry *e = PyMem_Malloc(sizeof(Entry) + sizeof(M) * 2 * (size_t)(n + 1));
    if (!e) {
        PyErr_NoMemory();
        return NULL;
    }
    e->refs = 1;
    memcpy(e->m, off, sizeof(M) * (size_t)(n + 1));
    memcpy(e->m + n + 1, on, sizeof(M) * (size_t)(n + 1));
    return e;
}

static void entry_decref(Entry *e) {
    if (e && --e->refs == 0) PyMem_Free(e);
}

static Closures *closures_alloc(int size, int n, Py_ssize_t cap) {
    Closures *c = PyObject_New(Closures, &ClosuresType);
    if (!c) return NULL;
    c->size = size;
    c->n = n;
    c->count = 0;
    c->cap = cap;
    c->keys = NULL;
    c->stale = NULL;
    c->ent = NULL;
    if (cap > 0) {
        c->keys = PyMem_Malloc(sizeof(int32_t) * (size_t)cap);
        c->stale = PyMem_Malloc((size_t)cap);
        c->ent = PyMem_Malloc(sizeof(Entry *) * (size_t)cap);
        if (!c->keys || !c->stale || !c->ent) {
            Py_DECREF(c);
            PyErr_NoMemory();
            return NULL;
        }
    }
    return c;
}

/* (the caller made room: count < cap; ``e`` is taken over, one reference) */
static inline void closures_push(Closures *c, int key, Entry *e, int stale) {
    c->keys[c->count] = key;
    c->stale[c->count] = (uint8_t)stale;
    c->ent[c->count] = e;
    c->count++;
}

static void closures_dealloc(PyObject *self) {
    Closures *c = (Closures *)self;
    for (Py_ssize_t i = 0; i < c->count; i++) entry_decref(c->ent[i]);
    PyMem_Free(c->keys);
    PyMem_Free(c->stale);
    PyMem_Free(c->ent);
    Py_TYPE(self)->tp_free(self);
}

static Py_ssize_t closures_len(PyObject *self) { return ((Closures *)self)->count; }

static PyObject *closures_to_dict(PyObject *self, PyObject *unused) {
    (void)unused;
    Closures *c = (Closures *)self;
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    for (Py_ssize_t i = 0; i < c->count; i++) {
        PyObject *a = pack(c->ent[i]->m, c->n, c->size);
        PyObject *b = a ? pack(c->ent[i]->m + c->n + 1, c->n, c->size) : NULL;
        PyObject *t = b ? PyTuple_Pack(3, a, b, c->stale[i] ? Py_True : Py_False) : NULL;
        PyObject *k = t ? PyLong_FromLong(c->keys[i]) : NULL;
        int r = k ? PyDict_SetItem(d, k, t) : -1;
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_XDECREF(t);
        Py_XDECREF(k);
        if (r < 0) {
            Py_DECREF(d);
            return NULL;
        }
    }
    return d;
}

/* a packed int's bits as cell masks per digit 0..n (bits past (n + 1) * size ignored) */
static int unpack(PyObject *o, M *out, int n, int size) {
    uint64_t w[PWORDS];
    int pw = ((n + 1) * size + 63) / 64;
    if (to_words(o, w, pw) < 0) return -1;
    memset(out, 0, sizeof(M) * (size_t)(n + 1));
    for (int i = 0; i < pw; i++) {
        uint64_t v = w[i];
        while (v) {
            int bit = i * 64 + __builtin_ctzll(v);
            v &= v - 1;
            int d = bit / size;
            if (d > n) break;
            m_set(&out[d], bit % size);
        }
    }
    return 0;
}

static int cmp_key(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* the closures of a dict as the Python path keeps them ({cell << 5 | digit: (off packed,
 * on packed, stale)}); keys that are not a candidate index of the grid are left out (no
 * scan or forcing reads them); a bad value raises */
static Closures *closures_from_dict(PyObject *dict, int size, int n) {
    Py_ssize_t cap = PyDict_GET_SIZE(dict);
    Closures *c = closures_alloc(size, n, cap);
    if (!c) return NULL;
    int32_t *order = PyMem_Malloc(sizeof(int32_t) * (size_t)(cap ? cap : 1));
    if (!order) {
        Py_DECREF(c);
        PyErr_NoMemory();
        return NULL;
    }
    Py_ssize_t pos = 0, nk = 0;
    PyObject *pk, *v;
    while (PyDict_Next(dict, &pos, &pk, &v)) {    /* borrowed */
        long kv = PyLong_Check(pk) ? PyLong_AsLong(pk) : -1;
        if (kv == -1 && PyErr_Occurred()) PyErr_Clear();
        if (kv < 0 || (kv >> 5) >= size || (kv & 31) < 1 || (kv & 31) > n) continue;
        if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != 3) {
            PyErr_SetString(PyExc_TypeError, "_se_kernel: closures: bad entry");
            goto fail;
        }
        order[nk++] = (int32_t)kv;
    }
    qsort(order, (size_t)nk, sizeof(int32_t), cmp_key);
    for (Py_ssize_t i = 0; i < nk; i++) {
        PyObject *key = PyLong_FromLong(order[i]);
        if (!key) goto fail;
        v = PyDict_GetItemWithError(dict, key);    /* borrowed */
        Py_DECREF(key);
        if (!v) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "_se_kernel: closures changed");
            goto fail;
        }
        M off[ND], on[ND];
        if (unpack(PyTuple_GET_ITEM(v, 0), off, n, size) < 0 ||
            unpack(PyTuple_GET_ITEM(v, 1), on, n, size) < 0)
            goto fail;
        int stale = PyObject_IsTrue(PyTuple_GET_ITEM(v, 2));
        if (stale < 0) goto fail;
        Entry *e = entry_new(n, off, on);
        if (!e) goto fail;
        closures_push(c, order[i], e, stale);
    }
    PyMem_Free(order);
    return c;
fail:
    PyMem_Free(order);
    Py_DECREF(c);
    return NULL;
}

/* ``o`` (a Closures of this grid, a dict, or None for ``none_ok``) as a new reference to a
 * Closures; NULL with an error set, or NULL without one for None */
static Closures *closures_arg(PyObject *o, const Static *st, int none_ok) {
    if (o == Py_None && none_ok) return NULL;
    if (Py_IS_TYPE(o, &ClosuresType)) {
        Closures *c = (Closures *)o;
        if (c->size != st->size || c->n != st->n) {
            PyErr_SetString(PyExc_ValueError, "_se_kernel: closures of another grid size");
            return NULL;
        }
        Py_INCREF(o);
        return c;
    }
    if (PyDict_Check(o)) return closures_from_dict(o, st->size, st->n);
    PyErr_SetString(PyExc_TypeError, none_ok ? "_se_kernel: prev must be closures, a dict or None"
                                             : "_se_kernel: closures must be closures or a dict");
    return NULL;
}

static PyMethodDef closures_methods[] = {
    {"to_dict", closures_to_dict, METH_NOARGS,
     "to_dict() -> {cell << 5 | digit: (off packed, on packed, stale)}, the Python path's form"},
    {NULL, NULL, 0, NULL},
};

static PyMappingMethods closures_mapping = {closures_len, NULL, NULL};

static PyTypeObject ClosuresType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "techniques._se_kernel.Closures",
    .tp_basicsize = sizeof(Closures),
    .tp_itemsize = 0,
    .tp_dealloc = closures_dealloc,
    .tp_as_mapping = &closures_mapping,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The level probe's closures of one scan, kept in C memory (immutable).",
    .tp_methods = closures_methods,
};

/* the candidate scan of _level_closure (and of _base_closures: least 0, no prev, no budget) */
static PyObject *py_scan(PyObject *self, PyObject *args) {
    PyObject *cap, *cand, *cw, *unsolved, *cells_o, *prev, *fresh, *gone, *left_o;
    PyObject *base_o = Py_None;
    int least, level;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOiOOOiO|O", &cap, &cand, &cw, &unsolved, &cells_o, &least,
                          &prev, &fresh, &gone, &level, &left_o, &base_o))
        return NULL;
    if (prev != Py_None && !PyDict_Check(prev) && !Py_IS_TYPE(prev, &ClosuresType)) {
        PyErr_SetString(PyExc_TypeError, "_se_kernel: prev must be closures, a dict or None");
        return NULL;
    }
    long long left = 0;
    int limited = left_o != Py_None;
    if (limited) {
        left = PyLong_AsLongLong(left_o);
        if (left == -1 && PyErr_Occurred()) return NULL;
    }
    Grid *g = PyMem_Malloc(sizeof(Grid));
    if (!g) return PyErr_NoMemory();
    PyObject *found = NULL, *key = NULL, *t = NULL;
    Closures *pv = NULL, *out = NULL;
    if (grid_load(g, cap, cand, cw, unsolved) < 0) goto fail;
    int n = g->st->n, size = g->st->size;
    pv = closures_arg(prev, g->st, 1);
    if (!pv && PyErr_Occurred()) goto fail;
    int use_prev = pv && pv->count > 0;
    M freshm[ND], gonem[ND];
    int fd[ND], gd[ND], nfd = 0, ngd = 0;     /* the digits with fresh / gone cells */
    if (use_prev) {
        if (!PyLong_Check(fresh) || !PyLong_Check(gone)) {
            PyErr_SetString(PyExc_TypeError, "_se_kernel: fresh and gone must be ints");
            goto fail;
        }
        if (unpack(fresh, freshm, n, size) < 0 || unpack(gone, gonem, n, size) < 0) goto fail;
        for (int d = 0; d <= n; d++) {
            if (m_any(freshm[d])) fd[nfd++] = d;
            if (m_any(gonem[d])) gd[ngd++] = d;
        }
    }
    static Waves wbuf;
    Waves *wv = &wbuf;
    M cells;
    if (to_mask(cells_o, &cells, size) < 0) goto fail;
    /* base_cw: the state's own grid (cells per digit 0..n): found chains then come with
     * their rule facts (nested._rule_facts) instead of their waves */
    M basecw[ND];
    int use_base = base_o != Py_None;
    if (use_base) {
        if (!PyList_Check(base_o) || PyList_GET_SIZE(base_o) != n + 1) {
            PyErr_SetString(PyExc_ValueError, "_se_kernel: base_cw needs one int per digit 0..n");
            goto fail;
        }
        for (int d = 0; d <= n; d++)
            if (to_mask(PyList_GET_ITEM(base_o, d), &basecw[d], size) < 0) goto fail;
    }
    /* room for every candidate of the scan */
    Py_ssize_t room = 0;
    M cm = cells;
    while (m_any(cm)) {
        int x = m_low(cm);
        m_clear_low(&cm);
        if (popc32(g->cand[x]) >= least) room += popc32(g->cand[x]);
    }
    found = PyList_New(0);
    out = closures_alloc(size, n, room);
    if (!found || !out) goto fail;
    M on[ND], off[ND];
    /* the previous closures are walked once, in step with the scan (both in key order);
     * an old closure stands unless one of its false facts got a new strong link (fresh);
     * at level 3 also unless it may have lost facts (gone: then it is stale) */
    Py_ssize_t p = 0;
    while (m_any(cells)) {
        int x = m_low(cells);
        m_clear_low(&cells);
        uint32_t k = g->cand[x];
        if (popc32(k) < least) continue;
        while (k) {
            int e = __builtin_ctz(k);
            k &= k - 1;
            int kv = x << 5 | e;
            if (use_prev) {
                while (p < pv->count && pv->keys[p] < kv) p++;
                if (p < pv->count && pv->keys[p] == kv) {
                    Entry *o = pv->ent[p];
                    int hit = 0;
                    for (int i = 0; i < nfd && !hit; i++)
                        hit = m_any(m_and(o->m[fd[i]], freshm[fd[i]]));
                    if (!hit) {
                        int stale = pv->stale[p];
                        for (int i = 0; i < ngd && !stale; i++) {
                            const int d = gd[i];
                            M u = o->m[d];
                            m_or(&u, o->m[n + 1 + d]);
                            stale = m_any(m_and(u, gonem[d]));
                        }
                        if (level < 3 || !stale) {
                            o->refs++;
                            closures_push(out, kv, o, stale);
                            continue;
                        }
                    }
                }
            }
            if (limited) {
                if (left <= 0) {
                    /* ran out: (False, left, [], no closures) as the Python scan */
                    Py_DECREF(found);
                    Py_DECREF(out);
                    Py_XDECREF(pv);
                    PyMem_Free(g);
                    return Py_BuildValue("(OLNN)", Py_False, left, PyList_New(0),
                                         (PyObject *)closures_alloc(size, n, 0));
                }
                left--;
            }
            grid_links(g);
            int nodes = reach(g, x, e, on, off, wv);
            if (nodes) {
                PyObject *w;
                if (!use_base || wv->nw < 0)
                    w = waves_list(wv, n);      /* (None past MAXWAVES) */
                else
                    w = rule_facts(g, wv, basecw, x, e, 0);
                if (!w) goto fail;
                t = Py_BuildValue("(iiiN)", x, e, nodes, w);
                if (!t || PyList_Append(found, t) < 0) goto fail;
                Py_CLEAR(t);
            } else {
                Entry *en = entry_new(n, off, on);
                if (!en) goto fail;
                closures_push(out, kv, en, 0);
            }
        }
    }
    Py_XDECREF(pv);
    PyMem_Free(g);
    /* ("N" steals found and out, also when it fails) */
    if (limited) return Py_BuildValue("(OLNN)", Py_True, left, found, (PyObject *)out);
    return Py_BuildValue("(OONN)", Py_True, Py_None, found, (PyObject *)out);
fail:
    Py_XDECREF(key);
    Py_XDECREF(t);
    Py_XDECREF(found);
    Py_XDECREF((PyObject *)out);
    Py_XDECREF((PyObject *)pv);
    PyMem_Free(g);
    return NULL;
}

/* nested._forcing's conclusions: SE's static cell and region forcing chains from the
 * closures of every candidate's "true" on the grid (closures as _level_closure keeps them:
 * the scan's closures, or the Python path's dict {cell << 5 | digit: (off packed, on packed,
 * stale)}); the dict {fact: (nodes, group)} in the order the Python code builds it */
typedef struct { int len; int16_t k[MAXCELLS]; } Group;

static PyObject *py_forcing(PyObject *self, PyObject *args) {
    PyObject *cap, *cand, *cw, *unsolved, *on_o, *closures;
    int min_cell = 3;      /* nested.SE_FORCING_CELL */
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOO|i", &cap, &cand, &cw, &unsolved, &on_o, &closures,
                          &min_cell))
        return NULL;
    if (!PyDict_Check(closures) && !Py_IS_TYPE(closures, &ClosuresType)) {
        PyErr_SetString(PyExc_TypeError, "_se_kernel: closures must be closures or a dict");
        return NULL;
    }
    Grid *g = PyMem_Malloc(sizeof(Grid));
    if (!g) return PyErr_NoMemory();
    PyObject *out = NULL, *key = NULL;
    Closures *cl = NULL;
    /* per candidate index (cell << 5 | digit): its entry in the closures, and its depths */
    int nk = 0;
    int8_t *state = NULL;          /* 0 not looked up, 1 usable, -1 missing or stale */
    const Entry **ent = NULL;
    Depths **dep = NULL;
    Group *groups = NULL;
    int ngroups = 0;
    if (grid_load(g, cap, cand, cw, unsolved) < 0) goto fail;
    const Static *st = g->st;
    int n = st->n, size = st->size;
    nk = size << 5;
    cl = closures_arg(closures, st, 0);
    if (!cl) goto fail;
    M onm;
    if (to_mask(on_o, &onm, size) < 0) goto fail;
    state = PyMem_Calloc(nk, 1);
    ent = PyMem_Calloc(nk, sizeof(Entry *));
    dep = PyMem_Calloc(nk, sizeof(Depths *));
    groups = PyMem_Malloc(sizeof(Group) * (size + st->nfull * n));
    if (!state || !ent || !dep || !groups) {
        PyErr_NoMemory();
        goto fail;
    }
    /* the groups: each open cell's candidates, then each full house's places per digit */
    M m;
    if (to_mask(unsolved, &m, size) < 0) goto fail;
    m = m_andnot(m, onm);
    while (m_any(m)) {
        int x = m_low(m);
        m_clear_low(&m);
        uint32_t k = g->cand[x];
        if (popc32(k) >= min_cell) {
            Group *gr = &groups[ngroups++];
            gr->len = 0;
            while (k) {
                int e = __builtin_ctz(k);
                k &= k - 1;
                gr->k[gr->len++] = (int16_t)(x << 5 | e);
            }
        }
    }
    for (int h = 0; h < st->nfull; h++) {
        for (int d = 1; d <= n; d++) {
            M pl = m_andnot(m_and(st->full[h], g->cw[d]), onm);
            /* SE starts a region forcing chain only from the first place, a cell it
             * scans (min_cell candidates or more) */
            if (m_count(pl) >= 2 && popc32(g->cand[m_low(pl)]) >= min_cell) {
                Group *gr = &groups[ngroups++];
                gr->len = 0;
                while (m_any(pl)) {
                    int x = m_low(pl);
                    m_clear_low(&pl);
                    gr->k[gr->len++] = (int16_t)(x << 5 | d);
                }
            }
        }
    }
    out = PyDict_New();
    if (!out) goto fail;
    for (int gi = 0; gi < ngroups; gi++) {
        Group *gr = &groups[gi];
        int skip = 0;
        for (int j = 0; j < gr->len && !skip; j++) {
            int k = gr->k[j];
            if (!state[k]) {
                /* (binary search: the closures are in key order) */
                Py_ssize_t lo = 0, hi = cl->count;
                while (lo < hi) {
                    Py_ssize_t mid = (lo + hi) / 2;
                    if (cl->keys[mid] < k) lo = mid + 1; else hi = mid;
                }
                if (lo < cl->count && cl->keys[lo] == k && !cl->stale[lo]) {
                    ent[k] = cl->ent[lo];
                    state[k] = 1;
                } else {
                    state[k] = -1;
                }
            }
            if (state[k] < 0) skip = 1;
        }
        if (skip) continue;
        M a[ND], b[ND];
        const Entry *e0 = ent[gr->k[0]];
        memcpy(a, e0->m, sizeof(M) * (size_t)(n + 1));
        memcpy(b, e0->m + n + 1, sizeof(M) * (size_t)(n + 1));
        for (int j = 1; j < gr->len; j++) {
            const Entry *ej = ent[gr->k[j]];
            int any = 0;
            for (int d = 0; d <= n; d++) {
                a[d] = m_and(a[d], ej->m[d]);
                b[d] = m_and(b[d], ej->m[n + 1 + d]);
                any |= m_any(a[d]) | m_any(b[d]);
            }
            if (!any) break;
        }
        int any = 0;
        for (int d = 0; d <= n; d++) {
            a[d] = m_and(a[d], g->cw[d]);      /* live: the candidates of the grid */
            any |= m_any(a[d]) | m_any(b[d]);
        }
        if (!any) continue;
        for (int pass = 0; pass < 2; pass++) {
            int on_ = pass == 0;
            M *bits = on_ ? b : a;
            for (int d = 0; d <= n; d++) {
                M q = bits[d];
                while (m_any(q)) {
                    int x = m_low(q);
                    m_clear_low(&q);
                    if (on_ && m_has(onm, x)) continue;
                    if (d < 1) continue;     /* (never: digit 0 holds no fact) */
                    long nodes = 0;
                    for (int j = 0; j < gr->len; j++) {
                        int k = gr->k[j];
                        if (!dep[k]) {
                            dep[k] = PyMem_Malloc(sizeof(Depths));
                            if (!dep[k]) {
                                PyErr_NoMemory();
                                goto fail;
                            }
                            grid_links(g);
                            reach_depths(g, k >> 5, k & 31, dep[k]);
                        }
                        nodes += on_ ? dep[k]->on[d][x] : dep[k]->off[d][x];
                    }
                    long f = ((long)(x << 5 | d) << 1) | on_;
                    key = PyLong_FromLong(f);
                    if (!key) goto fail;
                    PyObject *old = PyDict_GetItemWithError(out, key);   /* borrowed */
                    if (!old && PyErr_Occurred()) goto fail;
                    long oldn = 0;
                    if (old) {
                        oldn = PyLong_AsLong(PyTuple_GET_ITEM(old, 0));
                        if (oldn == -1 && PyErr_Occurred()) goto fail;
                    }
                    if (!old || nodes < oldn) {
                        PyObject *grp = PyList_New(gr->len);
                        if (!grp) goto fail;
                        for (int j = 0; j < gr->len; j++) {
                            PyObject *v = PyLong_FromLong(gr->k[j]);
                            if (!v) {
                                Py_DECREF(grp);
                                goto fail;
                            }
                            PyList_SET_ITEM(grp, j, v);
                        }
                        PyObject *t = Py_BuildValue("(lN)", nodes, grp);
                        if (!t) goto fail;
                        int r = PyDict_SetItem(out, key, t);
                        Py_DECREF(t);
                        if (r < 0) goto fail;
                    }
                    Py_CLEAR(key);
                }
            }
        }
    }
    for (int k = 0; k < nk; k++) PyMem_Free(dep[k]);
    PyMem_Free(dep);
    PyMem_Free(ent);
    PyMem_Free(state);
    PyMem_Free(groups);
    PyMem_Free(g);
    Py_DECREF((PyObject *)cl);
    return out;
fail:
    Py_XDECREF(key);
    Py_XDECREF(out);
    if (dep)
        for (int k = 0; k < nk; k++) PyMem_Free(dep[k]);
    PyMem_Free(dep);
    PyMem_Free(ent);
    PyMem_Free(state);
    PyMem_Free(groups);
    PyMem_Free(g);
    Py_XDECREF((PyObject *)cl);
    return NULL;
}

/* nested._news: per digit, the cells that lost it since ``before`` (cells per digit 0..n),
 * and the cells whose false candidate of that digit got a new strong link (a cell that
 * became bivalue, a house where the digit has two places left), both packed */
static PyObject *py_news(PyObject *self, PyObject *args) {
    PyObject *cap, *before, *cand, *cw;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOO", &cap, &before, &cand, &cw)) return NULL;
    const Static *st = PyCapsule_GetPointer(cap, "se_kernel.static");
    if (!st) return NULL;
    int size = st->size, n = st->n;
    if (!PyList_Check(before) || PyList_GET_SIZE(before) != n + 1 || !PyList_Check(cw) ||
        PyList_GET_SIZE(cw) != n + 1 || !PyList_Check(cand) || PyList_GET_SIZE(cand) != size) {
        PyErr_SetString(PyExc_ValueError, "_se_kernel: before and cw need one int per digit 0..n, cand one per cell");
        return NULL;
    }
    M gone[ND], fresh[ND], changed = {{0, 0}};
    memset(gone, 0, sizeof gone);
    memset(fresh, 0, sizeof fresh);
    for (int d = 1; d <= n; d++) {
        M b, c;
        if (to_mask(PyList_GET_ITEM(before, d), &b, size) < 0 ||
            to_mask(PyList_GET_ITEM(cw, d), &c, size) < 0)
            return NULL;
        M gd = m_andnot(b, c);
        gone[d] = gd;
        m_or(&changed, gd);
        if (m_any(gd))
            for (int h = 0; h < st->nfull; h++)
                if (m_any(m_and(st->full[h], gd))) {
                    M pl = m_and(st->full[h], c);
                    if (m_count(pl) == 2) m_or(&fresh[d], pl);
                }
    }
    while (m_any(changed)) {
        int x = m_low(changed);
        m_clear_low(&changed);
        long v = PyLong_AsLong(PyList_GET_ITEM(cand, x));
        if (v == -1 && PyErr_Occurred()) return NULL;
        if (v < 0 || v >> (n + 1)) {
            PyErr_SetString(PyExc_ValueError, "_se_kernel: cand: digit out of range");
            return NULL;
        }
        uint32_t k = (uint32_t)v;
        if (popc32(k) == 2)
            while (k) {
                int d = __builtin_ctz(k);
                k &= k - 1;
                m_set(&fresh[d], x);
            }
    }
    PyObject *a = pack(gone, n, size);
    PyObject *b = a ? pack(fresh, n, size) : NULL;
    PyObject *r = b ? PyTuple_Pack(2, a, b) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    return r;
}

/* closures(static, dict) -> Closures: the Python path's dict as the kernel keeps it */
static PyObject *py_closures(PyObject *self, PyObject *args) {
    PyObject *cap, *dict;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!", &cap, &PyDict_Type, &dict)) return NULL;
    const Static *st = PyCapsule_GetPointer(cap, "se_kernel.static");
    if (!st) return NULL;
    return (PyObject *)closures_from_dict(dict, st->size, st->n);
}

static PyMethodDef methods[] = {
    {"static_new", static_new, METH_VARARGS,
     "static_new(size, n, peers_d, full_masks) -> the grid's static tables"},
    {"reach", py_reach, METH_VARARGS,
     "reach(static, cand, cw, unsolved, c0, d0) -> (nodes, on packed, off packed)"},
    {"scan", py_scan, METH_VARARGS,
     "scan(static, cand, cw, unsolved, cells, least, prev, fresh, gone, level, left,"
     " base_cw=None) -> (ok, left, found, closures)"},
    {"forcing", py_forcing, METH_VARARGS,
     "forcing(static, cand, cw, unsolved, on, closures, min_cell=3) -> {fact: (nodes, group)}"},
    {"closures", py_closures, METH_VARARGS,
     "closures(static, dict) -> Closures (the dict {cell << 5 | digit: (off packed, on packed,"
     " stale)} in C memory)"},
    {"news", py_news, METH_VARARGS,
     "news(static, before, cand, cw) -> (gone packed, fresh packed)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_se_kernel",
    "SE probe chains: the compiled form of nested.se_reach and the level probe's scan.",
    -1, methods,
};

PyMODINIT_FUNC PyInit__se_kernel(void) {
    if (PyType_Ready(&ClosuresType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&ClosuresType);
    if (PyModule_AddObject(m, "Closures", (PyObject *)&ClosuresType) < 0) {
        Py_DECREF(&ClosuresType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
