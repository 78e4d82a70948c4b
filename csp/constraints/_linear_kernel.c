/* csp.constraints._linear_kernel: the exact supports of a linear sum
 * (csp/constraints/sums.py `linear_supports`) in C.
 *
 * linear_supports(doms, coeffs, total, differ) -> list of masks, or None
 *
 * The digits per position that take part in some filling of sum(coeffs[i] * digit_i) ==
 * total, digit_i a bit of the candidate mask doms[i], position i holding a digit other than
 * those of the earlier positions differ[i]. The answer is defined by the fillings alone
 * (the union of their digits per position), so it does not depend on how they are found:
 *
 * - with no two positions that must differ, the partial sums reachable after each position
 *   (forward) and those from which the total is still reachable (backward), as byte arrays
 *   over the range of partial sums; a digit is supported when it joins the two (the Python
 *   code does the same with big-int bit sets);
 * - otherwise, when every position has a digit of the sum alone, a depth-first search over
 *   those digits with sum bounds, skipping branches that can only find supported digits, and
 *   stopping once every digit is supported (the Python code's `rec`).
 *
 * Anything outside what this code takes (more than MAXK positions, a digit above 63, a
 * coefficient or total beyond COEF_MAX, a range of partial sums over RANGE_MAX, an argument
 * that is not a sequence of ints) gives None, and the caller takes the Python path. Every
 * loop is bounded by the positions, the digits and the range. The Python code stays the
 * reference and the fallback (csp/kernel.py); tests/csp/test_linear_kernel.py compares them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAXK 64
#define COEF_MAX (1LL << 24)
#define RANGE_MAX 4096

typedef struct {
    int k;
    int nd[MAXK];               /* digits per position */
    int dig[MAXK][64];          /* the digits, ascending */
    long long coef[MAXK];
    long long total;
    uint64_t differ[MAXK];      /* earlier positions this one must differ from */
    long long rest_lo[MAXK + 1], rest_hi[MAXK + 1];
    uint64_t dom[MAXK], sup[MAXK];
    int vals[MAXK];
    int want[MAXK + 1];
    int done;
} Search;

/* the Python code's `rec`: position i, partial sum s, `fresh`: some digit placed before i
 * is not yet supported */
static void rec(Search *S, int i, long long s, int fresh) {
    int k = S->k;
    if (S->done)
        return;
    if (i == k) {
        if (s == S->total) {
            int w = 0;
            for (int j = 0; j < k; j++)
                S->sup[j] |= (uint64_t)1 << S->vals[j];
            for (int j = k - 1; j >= 0; j--) {
                if (S->dom[j] & ~S->sup[j])
                    w = 1;
                S->want[j] = w;
            }
            if (!w)
                S->done = 1;
        }
        return;
    }
    if (!fresh && !S->want[i])
        return;
    long long a = S->coef[i];
    uint64_t forb = 0, x = S->differ[i];
    while (x) {
        int j = __builtin_ctzll(x);
        x &= x - 1;
        forb |= (uint64_t)1 << S->vals[j];
    }
    for (int n = 0; n < S->nd[i]; n++) {
        int d = S->dig[i][n];
        if (forb >> d & 1)
            continue;
        long long t = s + a * d;
        if (t + S->rest_lo[i + 1] <= S->total && S->total <= t + S->rest_hi[i + 1]) {
            S->vals[i] = d;
            rec(S, i + 1, t, fresh || !(S->sup[i] >> d & 1));
            if (S->done)
                return;
        }
    }
}

/* free supports (no position must differ) of the positions' digits into S->sup; 0 when the
 * range of partial sums is too wide for this code (the caller then returns None) */
static int free_supports(Search *S) {
    int k = S->k;
    long long lo[MAXK], hi[MAXK], plo[MAXK + 1], width = 1;
    plo[0] = 0;
    for (int i = 0; i < k; i++) {
        if (!S->nd[i]) {
            memset(S->sup, 0, sizeof(uint64_t) * k);
            return 1;
        }
        long long a = S->coef[i];
        long long x0 = a * S->dig[i][0], x1 = a * S->dig[i][S->nd[i] - 1];
        lo[i] = x0 < x1 ? x0 : x1;
        hi[i] = x0 < x1 ? x1 : x0;
        plo[i + 1] = plo[i] + lo[i];
        width += hi[i] - lo[i];
        if (width > RANGE_MAX)
            return 0;
    }
    memset(S->sup, 0, sizeof(uint64_t) * k);
    long long goal = S->total - plo[k];
    if (goal < 0 || goal >= width)
        return 1;
    /* fwd[i][s - plo[i]]: the partial sum s is reachable after i positions */
    static uint8_t fwd[MAXK + 1][RANGE_MAX], bwd[2][RANGE_MAX];
    memset(fwd[0], 0, (size_t)width);
    fwd[0][0] = 1;
    for (int i = 0; i < k; i++) {
        uint8_t *f = fwd[i], *g = fwd[i + 1];
        memset(g, 0, (size_t)width);
        for (int n = 0; n < S->nd[i]; n++) {
            long long sh = S->coef[i] * S->dig[i][n] - lo[i];     /* 0 <= sh <= hi - lo */
            for (long long s = 0; s + sh < width; s++)
                if (f[s])
                    g[s + sh] = 1;
        }
    }
    if (!fwd[k][goal])
        return 1;
    /* bwd: the partial sums after position i + 1 from which the total is reachable */
    uint8_t *b = bwd[0], *nb = bwd[1];
    memset(b, 0, (size_t)width);
    b[goal] = 1;
    for (int i = k - 1; i >= 0; i--) {
        uint8_t *f = fwd[i];
        memset(nb, 0, (size_t)width);
        for (int n = 0; n < S->nd[i]; n++) {
            long long sh = S->coef[i] * S->dig[i][n] - lo[i];
            int hit = 0;
            for (long long s = 0; s + sh < width; s++) {
                if (f[s] && b[s + sh]) {
                    hit = 1;
                    nb[s] = 1;
                }
            }
            if (hit)
                S->sup[i] |= (uint64_t)1 << S->dig[i][n];
        }
        uint8_t *tmp = b;
        b = nb;
        nb = tmp;
    }
    return 1;
}

/* an int of a sequence item into *out within [-lim, lim]; 0 (no error set) when it is not
 * one */
static int read_ll(PyObject *o, long long lim, long long *out) {
    if (!PyLong_Check(o))
        return 0;
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    if (v < -lim || v > lim)
        return 0;
    *out = v;
    return 1;
}

static Search S_;

static PyObject *py_linear_supports(PyObject *self, PyObject *args) {
    PyObject *doms_o, *coefs_o, *total_o, *differ_o;
    if (!PyArg_ParseTuple(args, "OOOO", &doms_o, &coefs_o, &total_o, &differ_o))
        return NULL;
    Search *S = &S_;
    PyObject *doms = PySequence_Fast(doms_o, "doms: a sequence");
    if (!doms)
        return NULL;
    PyObject *coefs = PySequence_Fast(coefs_o, "coeffs: a sequence");
    if (!coefs) {
        Py_DECREF(doms);
        return NULL;
    }
    PyObject *differ = PySequence_Fast(differ_o, "differ: a sequence");
    if (!differ) {
        Py_DECREF(doms);
        Py_DECREF(coefs);
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(doms);
    Py_ssize_t nd_ = PySequence_Fast_GET_SIZE(differ);
    if (k > MAXK || PySequence_Fast_GET_SIZE(coefs) < k || nd_ != k)
        goto none;
    if (!read_ll(total_o, COEF_MAX * 64 * MAXK, &S->total))
        goto none;
    S->k = (int)k;
    int any_differ = 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *m = PySequence_Fast_GET_ITEM(doms, i);
        if (!PyLong_Check(m))
            goto none;
        unsigned long long v = PyLong_AsUnsignedLongLong(m);
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            goto none;
        }
        S->dom[i] = v;
        int n = 0;
        uint64_t x = v;
        while (x) {
            S->dig[i][n++] = __builtin_ctzll(x);
            x &= x - 1;
        }
        S->nd[i] = n;
        if (!read_ll(PySequence_Fast_GET_ITEM(coefs, i), COEF_MAX, &S->coef[i]))
            goto none;
        S->differ[i] = 0;
        {
            PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(differ, i), "differ rows");
            if (!row) {
                PyErr_Clear();
                goto none;
            }
            Py_ssize_t r = PySequence_Fast_GET_SIZE(row);
            int ok = 1;
            for (Py_ssize_t q = 0; q < r; q++) {
                long long j;
                /* only earlier positions (the Python code reads vals[j] of them) */
                if (!read_ll(PySequence_Fast_GET_ITEM(row, q), MAXK, &j) || j < 0 || j >= i) {
                    ok = 0;
                    break;
                }
                S->differ[i] |= (uint64_t)1 << j;
            }
            Py_DECREF(row);
            if (!ok)
                goto none;
            if (r)
                any_differ = 1;
        }
    }
    if (!free_supports(S))
        goto none;
    if (any_differ) {
        int all = 1;
        for (int i = 0; i < k; i++)
            if (!S->sup[i])
                all = 0;
        if (!all) {
            memset(S->sup, 0, sizeof(uint64_t) * k);
        } else {
            /* the search over the sum's own supports */
            long long lo[MAXK], hi[MAXK];
            for (int i = 0; i < k; i++) {
                uint64_t x = S->sup[i];
                int n = 0;
                while (x) {
                    S->dig[i][n++] = __builtin_ctzll(x);
                    x &= x - 1;
                }
                S->nd[i] = n;
                S->dom[i] = S->sup[i];
                long long x0 = S->coef[i] * S->dig[i][0], x1 = S->coef[i] * S->dig[i][n - 1];
                lo[i] = x0 < x1 ? x0 : x1;
                hi[i] = x0 < x1 ? x1 : x0;
            }
            S->rest_lo[k] = S->rest_hi[k] = 0;
            for (int i = k - 1; i >= 0; i--) {
                S->rest_lo[i] = S->rest_lo[i + 1] + lo[i];
                S->rest_hi[i] = S->rest_hi[i + 1] + hi[i];
            }
            for (int i = 0; i < k; i++) {
                S->sup[i] = 0;
                S->want[i] = 1;
            }
            S->want[k] = 0;
            S->done = 0;
            rec(S, 0, 0, 0);
        }
    }
    result = PyList_New(k);
    if (!result)
        goto out;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(S->sup[i]);
        if (!v) {
            Py_CLEAR(result);
            goto out;
        }
        PyList_SET_ITEM(result, i, v);
    }
    goto out;
none:
    result = Py_None;
    Py_INCREF(result);
out:
    Py_DECREF(doms);
    Py_DECREF(coefs);
    Py_DECREF(differ);
    return result;
}

PyDoc_STRVAR(linear_supports_doc,
"linear_supports(doms, coeffs, total, differ) -> list of masks, or None\n\n"
"csp.constraints.sums.linear_supports in C (the same supports); None when the arguments\n"
"are beyond this code (then the Python code answers).");

static PyMethodDef methods[] = {
    {"linear_supports", py_linear_supports, METH_VARARGS, linear_supports_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_linear_kernel",
    "The exact supports of a linear sum (csp.constraints.sums) in C (see csp/constraints/_linear_kernel.c).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__linear_kernel(void) {
    return PyModule_Create(&module);
}
