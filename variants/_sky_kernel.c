/* variants._sky_kernel: the skyscraper line scan of variants/outside.py (`_line_supports`)
 * in C.
 *
 * The same exact dynamic programme as the Python code: the tallest digit n splits the line;
 * forward layers map the digit set of a prefix to a bit mask of the buildings it sees (kept
 * to the left clue's cap), backward layers the same for suffixes, a split is valid when a
 * prefix set and its complementary suffix set both reach their counts, and a second pass
 * keeps the digits on paths to a valid split. Every result is an OR of bits, so the order in
 * which the sets of a layer are visited does not matter: the masks are the Python code's.
 *
 * A layer of the Python code holds the sets of one size only (the prefix of i cells has i
 * digits), so one array indexed by the set serves every layer of a direction, and a list of
 * the sets met per size stands for the layer's dict. Lines of at most MAXN cells and digits
 * (2**MAXN sets, every one of them below the Python code's SCAN_LIMIT, so that cut-off never
 * applies here). Anything else raises ValueError and the caller takes the Python path. Every
 * argument is checked; every loop is bounded by the line length and the number of sets.
 * The Python code stays the reference and the fallback (csp/kernel.py);
 * tests/variants/test_sky_kernel.py compares the two.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAXN 12
#define NSETS (1u << (MAXN + 1))     /* sets are masks over bits 1..n */

typedef struct {
    uint32_t fwd[NSETS], bwd[NSETS], good_f[NSETS], good_b[NSETS];
    uint8_t in_f[NSETS], in_b[NSETS];
    uint32_t list_f[MAXN + 2][1u << MAXN], list_b[MAXN + 2][1u << MAXN];
    uint32_t len_f[MAXN + 2], len_b[MAXN + 2];
} Work;

static Work W;

/* the next layer (size + 1) from the sets of `src` of size `size`: each grows by a digit of
 * m it lacks; a digit above the whole set is one more building seen (count masks shift,
 * kept to cap) */
static void extend(uint32_t *val, uint8_t *in, uint32_t (*lists)[1u << MAXN], uint32_t *lens,
                   int size, uint32_t m, uint32_t cap) {
    uint32_t n_in = lens[size];
    for (uint32_t a = 0; a < n_in; a++) {
        uint32_t s = lists[size][a];
        uint32_t cm = val[s];
        uint32_t avail = m & ~s;
        while (avail) {
            uint32_t low = avail & (0u - avail);
            avail ^= low;
            uint32_t ncm = low > s ? (cm << 1) & cap : cm;
            if (ncm) {
                uint32_t ns = s | low;
                if (!in[ns]) {
                    in[ns] = 1;
                    val[ns] = 0;
                    lists[size + 1][lens[size + 1]++] = ns;
                }
                val[ns] |= ncm;
            }
        }
    }
}

/* marks in good (sets of size `size`) the counts of the states of the layer from which a
 * digit of m leads into a good state of the next size; returns those digits */
static uint32_t good_pass(const uint32_t *val, uint32_t (*lists)[1u << MAXN],
                          const uint32_t *lens, int size, uint32_t m, uint32_t *good) {
    uint32_t si = 0;
    uint32_t n_in = lens[size];
    for (uint32_t a = 0; a < n_in; a++) {
        uint32_t s = lists[size][a];
        uint32_t cm = val[s];
        uint32_t avail = m & ~s;
        uint32_t acc = 0;
        while (avail) {
            uint32_t low = avail & (0u - avail);
            avail ^= low;
            uint32_t g = good[s | low];
            if (g) {
                uint32_t ok = low > s ? g >> 1 : g;
                if (cm & ok) {
                    acc |= ok;
                    si |= low;
                }
            }
        }
        if (acc) good[s] |= acc;
    }
    return si;
}

/* the cells' support masks as a new list of ints (NULL with an error set if it cannot be made) */
static PyObject *masks_list(const uint32_t *sup, int k) {
    PyObject *out = PyList_New(k);
    if (!out) return NULL;
    for (int i = 0; i < k; i++) {
        PyObject *v = PyLong_FromUnsignedLong(sup[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

/* the line's masks from a list of ints, each within ``full``; -1 with an error set if not */
static int read_doms(PyObject *doms_o, int k, uint32_t full, uint32_t *doms) {
    for (int i = 0; i < k; i++) {
        PyObject *o = PyList_GET_ITEM(doms_o, i);
        if (!PyLong_Check(o)) {
            PyErr_SetString(PyExc_TypeError, "_sky_kernel: masks must be ints");
            return -1;
        }
        long v = PyLong_AsLong(o);
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || ((unsigned long)v & ~(unsigned long)full)) {
            PyErr_SetString(PyExc_ValueError, "_sky_kernel: mask out of range");
            return -1;
        }
        doms[i] = (uint32_t)v;
    }
    return 0;
}

static PyObject *py_line_supports(PyObject *self, PyObject *args) {
    PyObject *doms_o;
    int n, left, right;
    if (!PyArg_ParseTuple(args, "O!iii", &PyList_Type, &doms_o, &n, &left, &right))
        return NULL;
    Py_ssize_t k = PyList_GET_SIZE(doms_o);
    if (n < 1 || n > MAXN || k != n || left < 0 || left > n || right < 0 || right > n) {
        PyErr_SetString(PyExc_ValueError, "_sky_kernel: line not handled");
        return NULL;
    }
    uint32_t doms[MAXN];
    uint32_t full = (uint32_t)((1u << (n + 1)) - 2);
    if (read_doms(doms_o, (int)k, full, doms) < 0) return NULL;
    uint32_t top = 1u << n;
    uint32_t rest = full ^ top;
    uint32_t need_l = left ? 1u << (left - 1) : 0xFFFFFFFFu;
    uint32_t need_r = right ? 1u << (right - 1) : 0xFFFFFFFFu;
    uint32_t cap_l = left ? (1u << left) - 1 : 0xFFFFFFFFu;
    uint32_t cap_r = right ? (1u << right) - 1 : 0xFFFFFFFFu;
    int first = -1, last = -1;
    for (int i = 0; i < k; i++) {
        if (doms[i] & top) {
            if (first < 0) first = i;
            last = i;
        }
    }
    if (first < 0) Py_RETURN_NONE;
    Work *w = &W;
    /* clear the marks of every set of this line's digits once per call (2**(n+1) bytes
     * each: a set is a mask over bits 1..n) */
    memset(w->in_f, 0, sizeof(uint8_t) << (n + 1));
    memset(w->in_b, 0, sizeof(uint8_t) << (n + 1));
    memset(w->len_f, 0, sizeof(w->len_f));
    memset(w->len_b, 0, sizeof(w->len_b));
    /* forward layers: the prefix of i cells has i digits (size i) */
    w->in_f[0] = 1;
    w->fwd[0] = 1;
    w->list_f[0][0] = 0;
    w->len_f[0] = 1;
    for (int i = 0; i < last; i++)
        extend(w->fwd, w->in_f, w->list_f, w->len_f, i, doms[i] & rest, cap_l);
    /* backward layers: the suffix from cell j has k - j digits */
    w->in_b[0] = 1;
    w->bwd[0] = 1;
    w->list_b[0][0] = 0;
    w->len_b[0] = 1;
    for (int j = k - 1; j > first; j--)
        extend(w->bwd, w->in_b, w->list_b, w->len_b, k - 1 - j, doms[j] & rest, cap_r);
    /* good marks start empty (every set: a lookup may name a set never met) */
    memset(w->good_f, 0, sizeof(uint32_t) << (n + 1));
    memset(w->good_b, 0, sizeof(uint32_t) << (n + 1));
    uint32_t sup[MAXN];
    memset(sup, 0, sizeof(sup));
    int any = 0;
    for (int p = first; p <= last; p++) {
        if (!(doms[p] & top)) continue;
        int bsize = k - (p + 1);        /* the suffix after p */
        for (uint32_t a = 0; a < w->len_f[p]; a++) {
            uint32_t s = w->list_f[p][a];
            if (!(w->fwd[s] & need_l)) continue;
            uint32_t t = rest ^ s;
            if (__builtin_popcount(t) != bsize || !w->in_b[t]) continue;
            if (w->bwd[t] & need_r) {
                w->good_f[s] = need_l;
                w->good_b[t] = need_r;
                sup[p] |= top;
                any = 1;
            }
        }
    }
    if (!any) Py_RETURN_NONE;
    /* the lookups good[s | low] below may hit a set never met: those read 0 */
    for (int i = last - 1; i >= 0; i--)
        sup[i] |= good_pass(w->fwd, w->list_f, w->len_f, i, doms[i] & rest, w->good_f);
    for (int j = first + 2; j <= k; j++)
        sup[j - 1] |= good_pass(w->bwd, w->list_b, w->len_b, k - j, doms[j - 1] & rest,
                                w->good_b);
    return masks_list(sup, (int)k);
}

PyDoc_STRVAR(line_supports_doc,
"line_supports(doms, n, left, right) -> list[int] | None\n\n"
"variants.outside._line_supports for a line of n <= 12 cells (ValueError otherwise),\n"
"without the budget's ticks.");

/* ---------------------------------------------------------------------------------------
 * The sandwich and X-sum scans of variants/outside.py (`_perm_scan` with `_Sandwich` /
 * `_XSum`), the same exact dynamic programme: forward layers map the digit set of a prefix
 * to a value mask (sandwich: the partial sums since the first crust, a dummy bit 0 outside
 * the crusts; X-sum: per first digit X, a word whose bit b says the first cells add up to
 * b), a backward pass keeps the digits on paths to an accepted end. The Python code's value
 * is one integer (X-sum: blocks of total + n + 1 bits); here a word per block, the same bits.
 * Every result is an OR of bits, so the order of the sets does not matter. Lines of at most
 * MAXN cells with totals of at most MAXTOTAL (the shifts stay inside a 64-bit word: a value
 * keeps bits 0..total and a step shifts it by a digit of at most MAXN, so total + MAXN < 64;
 * every 9x9 clue, whose X-sums reach 45, was 40 before: "July 4, 2023: X-Sums Sudoku" ran its
 * 45 clues' scans in Python, 2-3 ms a call); anything else raises ValueError and the caller
 * takes the Python path.
 */
#define MAXTOTAL (63 - MAXN)
#define MAXW (MAXN + 1)

typedef struct {
    uint64_t val[NSETS][MAXW], good[NSETS][MAXW];
    uint8_t in[NSETS], ing[NSETS];
    uint32_t list[MAXN + 2][1u << MAXN];
    uint32_t len[MAXN + 2];
} ScanWork;

static ScanWork SW;

/* The sandwich scan (kind 0) on one word a set: the same steps as the general loop below
 * with nw = 1, on arrays of one word a set (the general ones keep MAXW words a set, 13 of
 * them unused here: a 9-cell line touched about 50 KB of them a call) */
typedef struct {
    uint64_t val[NSETS], good[NSETS];
} SandWork;

static SandWork SAW;

static PyObject *sandwich_supports(const uint32_t *doms, int k, int n, int total) {
    ScanWork *w = &SW;                 /* its set marks and lists */
    SandWork *v = &SAW;
    const uint64_t ones = (((uint64_t)1) << (total + 1)) - 1;   /* sums 0..total */
    const uint64_t all = ~(uint64_t)0;
    const uint32_t ends = 2u | (1u << n);     /* the crusts, digits 1 and n */
    memset(w->in, 0, sizeof(uint8_t) << (n + 1));
    memset(w->ing, 0, sizeof(uint8_t) << (n + 1));
    memset(w->len, 0, sizeof(w->len));
    w->in[0] = 1;
    v->val[0] = 1;                             /* rule.init */
    w->list[0][0] = 0;
    w->len[0] = 1;
    for (int i = 0; i < k; i++) {
        uint32_t m = doms[i];
        uint32_t *next = w->list[i + 1];
        uint32_t nlen = 0;
        for (uint32_t a = 0; a < w->len[i]; a++) {
            uint32_t s = w->list[i][a];
            uint64_t cm = v->val[s];
            uint32_t e = s & ends;
            uint32_t avail = m & ~s;
            while (avail) {
                uint32_t low = avail & (0u - avail);
                avail ^= low;
                uint64_t nm;
                if (low & ends)
                    nm = e ? (cm >> total) & 1 : 1;
                else if (e && e != ends)
                    nm = (cm << __builtin_ctz(low)) & ones;
                else
                    nm = cm;
                if (!nm) continue;
                uint32_t ns = s | low;
                if (!w->in[ns]) {
                    w->in[ns] = 1;
                    v->val[ns] = 0;
                    next[nlen++] = ns;
                }
                v->val[ns] |= nm;
            }
        }
        w->len[i + 1] = nlen;
        if (!nlen) Py_RETURN_NONE;
    }
    int any = 0;
    for (uint32_t a = 0; a < w->len[k]; a++) {
        uint32_t s = w->list[k][a];
        if (!(v->val[s] & 1)) continue;        /* accepted: after the second crust */
        any = 1;
        w->ing[s] = 1;
        v->good[s] = 1;
    }
    if (!any) Py_RETURN_NONE;
    uint32_t sup[MAXN];
    for (int i = k - 1; i >= 0; i--) {
        uint32_t m = doms[i];
        uint32_t si = 0;
        for (uint32_t a = 0; a < w->len[i]; a++) {
            uint32_t s = w->list[i][a];
            uint64_t cm = v->val[s];
            uint32_t e = s & ends;
            uint32_t avail = m & ~s;
            uint64_t acc = 0;
            int got = 0;
            while (avail) {
                uint32_t low = avail & (0u - avail);
                avail ^= low;
                uint32_t t = s | low;
                if (!w->ing[t]) continue;
                uint64_t g = v->good[t];
                if (!g) continue;
                uint64_t ok;
                if (low & ends)
                    ok = e ? ((g & 1) ? ((uint64_t)1) << total : 0) : ((g & 1) ? all : 0);
                else if (e && e != ends)
                    ok = g >> __builtin_ctz(low);
                else
                    ok = g;
                if (cm & ok) {
                    acc |= ok;
                    si |= low;
                    got = 1;
                }
            }
            if (got) {
                w->ing[s] = 1;
                v->good[s] = acc;
            }
        }
        sup[i] = si;
    }
    return masks_list(sup, k);
}

static PyObject *py_scan_supports(PyObject *self, PyObject *args) {
    PyObject *doms_o;
    int n, kind, total;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!iii", &PyList_Type, &doms_o, &n, &kind, &total))
        return NULL;
    Py_ssize_t kk = PyList_GET_SIZE(doms_o);
    if (n < 2 || n > MAXN || kk != n || (kind != 0 && kind != 1) || total < 0 ||
        total > MAXTOTAL) {
        PyErr_SetString(PyExc_ValueError, "_sky_kernel: scan not handled");
        return NULL;
    }
    int k = (int)kk;
    uint32_t doms[MAXN];
    uint32_t full = (uint32_t)((1u << (n + 1)) - 2);
    if (read_doms(doms_o, (int)k, full, doms) < 0) return NULL;
    if (kind == 0)
        return sandwich_supports(doms, k, n, total);
    ScanWork *w = &SW;
    const int nw = kind == 0 ? 1 : n + 1;     /* words of a value */
    const uint64_t ones = (((uint64_t)1) << (total + 1)) - 1;   /* sums 0..total */
    const uint64_t all = ~(uint64_t)0;
    const uint32_t ends = 2u | (1u << n);     /* the sandwich's crusts, digits 1 and n */
    memset(w->in, 0, sizeof(uint8_t) << (n + 1));
    memset(w->ing, 0, sizeof(uint8_t) << (n + 1));
    memset(w->len, 0, sizeof(w->len));
    w->in[0] = 1;
    memset(w->val[0], 0, sizeof(uint64_t) * MAXW);
    w->val[0][0] = 1;                          /* rule.init */
    w->list[0][0] = 0;
    w->len[0] = 1;
    uint64_t nm[MAXW];
    for (int i = 0; i < k; i++) {
        uint32_t m = doms[i];
        for (uint32_t a = 0; a < w->len[i]; a++) {
            uint32_t s = w->list[i][a];
            const uint64_t *cm = w->val[s];
            uint32_t avail = m & ~s;
            while (avail) {
                uint32_t low = avail & (0u - avail);
                avail ^= low;
                int d = __builtin_ctz(low);
                uint64_t nz = 0;
                if (kind == 0) {
                    uint32_t e = s & ends;
                    if (low & ends)
                        nm[0] = e ? (cm[0] >> total) & 1 : 1;
                    else if (e && e != ends)
                        nm[0] = (cm[0] << d) & ones;
                    else
                        nm[0] = cm[0];
                    nz = nm[0];
                } else if (i == 0) {
                    memset(nm, 0, sizeof(uint64_t) * nw);
                    if (d <= total) nm[d] = ((uint64_t)1) << d;
                    nz = d <= total;
                } else {
                    nm[0] = cm[0];
                    for (int x = 1; x < nw; x++) {
                        nm[x] = x <= i ? cm[x] : (cm[x] << d) & ones;
                        nz |= nm[x];
                    }
                    nz |= nm[0];
                }
                if (!nz) continue;
                uint32_t ns = s | low;
                if (!w->in[ns]) {
                    w->in[ns] = 1;
                    memset(w->val[ns], 0, sizeof(uint64_t) * nw);
                    w->list[i + 1][w->len[i + 1]++] = ns;
                }
                for (int x = 0; x < nw; x++) w->val[ns][x] |= nm[x];
            }
        }
        if (!w->len[i + 1]) Py_RETURN_NONE;
    }
    /* the accepted ends: sandwich bit 0 (after the second crust), X-sum bit total of
     * every block */
    int any = 0;
    for (uint32_t a = 0; a < w->len[k]; a++) {
        uint32_t s = w->list[k][a];
        int ok = 0;
        if (kind == 0) {
            ok = (int)(w->val[s][0] & 1);
        } else {
            for (int x = 1; x < nw; x++)
                if (w->val[s][x] >> total & 1) ok = 1;
        }
        if (!ok) continue;
        any = 1;
        w->ing[s] = 1;
        memset(w->good[s], 0, sizeof(uint64_t) * MAXW);
        if (kind == 0)
            w->good[s][0] = 1;
        else
            for (int x = 1; x < nw; x++) w->good[s][x] = ((uint64_t)1) << total;
    }
    if (!any) Py_RETURN_NONE;
    uint32_t sup[MAXN];
    uint64_t ok[MAXW], acc[MAXW];
    for (int i = k - 1; i >= 0; i--) {
        uint32_t m = doms[i];
        uint32_t si = 0;
        for (uint32_t a = 0; a < w->len[i]; a++) {
            uint32_t s = w->list[i][a];
            const uint64_t *cm = w->val[s];
            uint32_t avail = m & ~s;
            int got = 0;
            memset(acc, 0, sizeof(uint64_t) * nw);
            while (avail) {
                uint32_t low = avail & (0u - avail);
                avail ^= low;
                uint32_t t = s | low;
                if (!w->ing[t]) continue;
                const uint64_t *g = w->good[t];
                int d = __builtin_ctz(low);
                uint64_t gz = 0;
                for (int x = 0; x < nw; x++) gz |= g[x];
                if (!gz) continue;
                if (kind == 0) {
                    uint32_t e = s & ends;
                    if (low & ends)
                        ok[0] = e ? ((g[0] & 1) ? ((uint64_t)1) << total : 0)
                                  : ((g[0] & 1) ? all : 0);
                    else if (e && e != ends)
                        ok[0] = g[0] >> d;
                    else
                        ok[0] = g[0];
                } else if (i == 0) {
                    uint64_t v = (g[d] >> d & 1) ? all : 0;
                    for (int x = 0; x < nw; x++) ok[x] = v;
                } else {
                    for (int x = 0; x < nw; x++) ok[x] = (x >= 1 && x > i) ? g[x] >> d : g[x];
                }
                uint64_t hit = 0;
                for (int x = 0; x < nw; x++) hit |= cm[x] & ok[x];
                if (hit) {
                    for (int x = 0; x < nw; x++) acc[x] |= ok[x];
                    si |= low;
                    got = 1;
                }
            }
            if (got) {
                w->ing[s] = 1;
                memcpy(w->good[s], acc, sizeof(uint64_t) * nw);
            }
        }
        sup[i] = si;
    }
    return masks_list(sup, k);
}

PyDoc_STRVAR(scan_supports_doc,
"scan_supports(doms, n, kind, total) -> list[int] | None\n\n"
"variants.outside._perm_scan for a sandwich (kind 0) or X-sum (kind 1) clue of total at\n"
"most 40 on a line of n <= 12 cells (ValueError otherwise), without the budget's ticks.");

static PyMethodDef methods[] = {
    {"line_supports", py_line_supports, METH_VARARGS, line_supports_doc},
    {"scan_supports", py_scan_supports, METH_VARARGS, scan_supports_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_sky_kernel",
    "The skyscraper, sandwich and X-sum line scans of variants.outside in C (see variants/_sky_kernel.c).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__sky_kernel(void) {
    return PyModule_Create(&module);
}
