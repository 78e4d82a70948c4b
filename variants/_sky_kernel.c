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
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *o = PyList_GET_ITEM(doms_o, i);
        if (!PyLong_Check(o)) {
            PyErr_SetString(PyExc_TypeError, "_sky_kernel: masks must be ints");
            return NULL;
        }
        long v = PyLong_AsLong(o);
        if (v == -1 && PyErr_Occurred()) return NULL;
        if (v < 0 || ((unsigned long)v & ~(unsigned long)full)) {
            PyErr_SetString(PyExc_ValueError, "_sky_kernel: mask out of range");
            return NULL;
        }
        doms[i] = (uint32_t)v;
    }
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
    /* the sets are reset through the lists of the last call: clear the marks fully once
     * per call (at most 2**(MAXN+1) bytes each) */
    memset(w->in_f, 0, sizeof(w->in_f));
    memset(w->in_b, 0, sizeof(w->in_b));
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

PyDoc_STRVAR(line_supports_doc,
"line_supports(doms, n, left, right) -> list[int] | None\n\n"
"variants.outside._line_supports for a line of n <= 12 cells (ValueError otherwise),\n"
"without the budget's ticks.");

static PyMethodDef methods[] = {
    {"line_supports", py_line_supports, METH_VARARGS, line_supports_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_sky_kernel",
    "The skyscraper line scan of variants.outside in C (see variants/_sky_kernel.c).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__sky_kernel(void) {
    return PyModule_Create(&module);
}
