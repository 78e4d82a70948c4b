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
 * The same module writes the support encoding of a table and lists a linear sum's tuples
 * for csp/sat.py (`support`, `linear_tuples`, below), and the clauses of one side of an
 * equality of sums (`sum_side`) and of a killer cage (`cage`).
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

#include "../_packed.h"

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

/* linear_scan(doms, coeffs, total, differ, limit): linear_supports for the compiled engine
 * loop (csp/_engine_kernel.c's scans, `SumPropagator.kernel_scan` and
 * `LinearPropagator.kernel_scan` in csp/constraints/sums.py): the same list of masks when
 * the product of the domain sizes is at most `limit` (the propagators' exact branch,
 * sums._enumerable); otherwise, or where linear_supports gives None, ValueError: the scan
 * declines and the propagator's own propagate runs (its bounds, or the Python supports). */
static PyObject *py_linear_scan(PyObject *self, PyObject *args) {
    PyObject *doms_o, *coefs_o, *total_o, *differ_o;
    long long limit;
    if (!PyArg_ParseTuple(args, "O!OOOL", &PyList_Type, &doms_o, &coefs_o, &total_o,
                          &differ_o, &limit))
        return NULL;
    Py_ssize_t k = PyList_GET_SIZE(doms_o);
    long long prod = 1;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *m = PyList_GET_ITEM(doms_o, i);
        if (!PyLong_Check(m)) {
            PyErr_SetString(PyExc_TypeError, "_linear_kernel: masks must be ints");
            return NULL;
        }
        unsigned long long v = PyLong_AsUnsignedLongLong(m);
        if (v == (unsigned long long)-1 && PyErr_Occurred())
            return NULL;                  /* (OverflowError or ValueError: declines) */
        prod *= __builtin_popcountll(v);
        if (prod > limit) {
            PyErr_SetString(PyExc_ValueError, "_linear_kernel: not enumerated");
            return NULL;
        }
    }
    PyObject *a = PyTuple_Pack(4, doms_o, coefs_o, total_o, differ_o);
    if (!a)
        return NULL;
    PyObject *r = py_linear_supports(self, a);
    Py_DECREF(a);
    if (r == Py_None) {
        Py_DECREF(r);
        PyErr_SetString(PyExc_ValueError, "_linear_kernel: sum not handled");
        return NULL;
    }
    return r;
}

PyDoc_STRVAR(linear_scan_doc,
"linear_scan(doms, coeffs, total, differ, limit) -> list of masks\n\n"
"linear_supports for the compiled engine loop's scans: ValueError (it declines) when the\n"
"product of the domain sizes is above limit or linear_supports gives None.");

/* ---------------------------------------------------------------------------------------
 * The support encoding of a table (csp/sat.py `_support`) and the tuples of a linear sum
 * (`_linear_tuples` with `_table`'s filter of peer pairs), written in C: the same tuples in
 * the same order, the same clauses (lists of ints) in the same order, the same new
 * variables. Anything outside what this code takes gives None and the caller takes the
 * Python path (the reference; tests/csp/test_linear_kernel.py compares them).
 */
#define TMAXK 16                      /* positions of a table */
#define TMAXD 62                      /* digits */

/* k masks of digits 1..TMAXD from a sequence; 0 when not taken */
static int read_masks(PyObject *seq, Py_ssize_t k, uint64_t *out) {
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *m = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyLong_Check(m))
            return 0;
        unsigned long long v = PyLong_AsUnsignedLongLong(m);
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        if (v & ~((((uint64_t)1 << TMAXD) - 1) << 1))
            return 0;                 /* a digit 0 or past TMAXD */
        out[i] = v;
    }
    return 1;
}

/* The cells of a clause writer: their candidate masks and the variable bases of their
 * digits (a cell's digit d is base + d), k of each; 0 when one is not what it must be. */
static int read_cells(PyObject *masks, PyObject *bases, Py_ssize_t k, uint64_t *m,
                      long long *base) {
    if (!read_masks(masks, k, m))
        return 0;
    for (Py_ssize_t i = 0; i < k; i++)
        if (!read_ll(PySequence_Fast_GET_ITEM(bases, i), 1LL << 40, &base[i]) || base[i] < 0)
            return 0;
    return 1;
}

typedef struct {
    int k;
    int nd[TMAXK], dig[TMAXK][TMAXD];
    long long term[TMAXK][TMAXD];
    long long lo[TMAXK + 1], hi[TMAXK + 1], total;
    uint64_t pairs[TMAXK];            /* earlier positions this one must differ from */
    int vals[TMAXK];
    PyObject *out;
    int failed;
} Tuples;

/* Append the tuple (vals[0], ..., vals[k-1]) of Python ints to the list out: 0, or -1 with
   the Python error set (the enumerations of linear_tuples and sum_combos both end here) */
static int append_int_tuple(PyObject *out, const int *vals, int k) {
    PyObject *t = PyTuple_New(k);
    if (!t)
        return -1;
    for (int j = 0; j < k; j++) {
        PyObject *v = PyLong_FromLong(vals[j]);
        if (!v) { Py_DECREF(t); return -1; }
        PyTuple_SET_ITEM(t, j, v);
    }
    int r = PyList_Append(out, t);
    Py_DECREF(t);
    return r;
}

static void tuples_rec(Tuples *T, int i, long long s) {
    if (T->failed)
        return;
    if (i == T->k) {
        if (s != T->total)
            return;
        if (append_int_tuple(T->out, T->vals, T->k) < 0)
            T->failed = 1;
        return;
    }
    long long low = T->total - T->hi[i + 1], high = T->total - T->lo[i + 1];
    uint64_t pr = T->pairs[i];
    for (int a = 0; a < T->nd[i]; a++) {
        long long x = s + T->term[i][a];
        if (x < low || x > high)
            continue;
        int d = T->dig[i][a], clash = 0;
        for (uint64_t q = pr; q; q &= q - 1)
            if (T->vals[__builtin_ctzll(q)] == d) { clash = 1; break; }
        if (clash)
            continue;
        T->vals[i] = d;
        tuples_rec(T, i + 1, x);
    }
}

static PyObject *py_linear_tuples(PyObject *self, PyObject *args) {
    PyObject *masks_o, *coefs_o, *total_o, *pairs_o;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOO", &masks_o, &coefs_o, &total_o, &pairs_o))
        return NULL;
    PyObject *masks = PySequence_Fast(masks_o, "masks");
    PyObject *coefs = PySequence_Fast(coefs_o, "coeffs");
    PyObject *pairs = PySequence_Fast(pairs_o, "pairs");
    PyObject *result = NULL;
    Tuples *T = NULL;
    if (!masks || !coefs || !pairs) {
        PyErr_Clear();
        goto none;
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(masks);
    if (k < 1 || k > TMAXK || PySequence_Fast_GET_SIZE(coefs) != k)
        goto none;
    T = (Tuples *)calloc(1, sizeof(Tuples));
    if (!T) { PyErr_NoMemory(); goto out; }
    T->k = (int)k;
    uint64_t m[TMAXK];
    if (!read_masks(masks, k, m) || !read_ll(total_o, COEF_MAX * 64 * MAXK, &T->total))
        goto none;
    for (int i = 0; i < T->k; i++) {
        long long c;
        if (!read_ll(PySequence_Fast_GET_ITEM(coefs, i), COEF_MAX, &c) || !m[i])
            goto none;
        int n = 0;
        long long lo = 0, hi = 0;
        for (uint64_t x = m[i]; x; x &= x - 1) {
            int d = __builtin_ctzll(x);
            T->dig[i][n] = d;
            T->term[i][n] = c * d;
            if (!n || c * d < lo) lo = c * d;
            if (!n || c * d > hi) hi = c * d;
            n++;
        }
        T->nd[i] = n;
        T->lo[i] = lo;
        T->hi[i] = hi;
    }
    T->lo[k] = T->hi[k] = 0;
    for (int i = T->k - 1; i >= 0; i--) {
        T->lo[i] += T->lo[i + 1];
        T->hi[i] += T->hi[i + 1];
    }
    for (Py_ssize_t q = 0; q < PySequence_Fast_GET_SIZE(pairs); q++) {
        PyObject *pq = PySequence_Fast_GET_ITEM(pairs, q);
        long long a, b;
        if (!PyTuple_Check(pq) || PyTuple_GET_SIZE(pq) != 2 ||
            !read_ll(PyTuple_GET_ITEM(pq, 0), TMAXK, &a) ||
            !read_ll(PyTuple_GET_ITEM(pq, 1), TMAXK, &b) || a < 0 || b <= a || b >= k)
            goto none;
        T->pairs[b] |= (uint64_t)1 << a;
    }
    T->out = PyList_New(0);
    if (!T->out)
        goto out;
    tuples_rec(T, 0, 0);
    if (T->failed) {
        Py_CLEAR(T->out);
        goto out;
    }
    result = T->out;
    goto out;
none:
    result = Py_None;
    Py_INCREF(result);
out:
    free(T);
    Py_XDECREF(masks);
    Py_XDECREF(coefs);
    Py_XDECREF(pairs);
    return result;
}

PyDoc_STRVAR(linear_tuples_doc,
"linear_tuples(masks, coeffs, total, pairs) -> list of tuples, or None\n\n"
"csp.sat._linear_tuples over the digits of the masks, less the tuples with equal digits at\n"
"a pair (i, j) of `pairs` (i < j): the same tuples in the same order (product order).\n"
"None beyond this code (over 16 positions, a digit past 62, a big coefficient).");

/* a new list of ints */
static PyObject *int_list(const long long *xs, Py_ssize_t len) {
    PyObject *l = PyList_New(len);
    if (!l)
        return NULL;
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *v = PyLong_FromLongLong(xs[i]);
        if (!v) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, i, v);
    }
    return l;
}

/* a clause appended to `clauses`: a list, or a packed block (its record, csp/_packed.h) */
static int append_ints(PyObject *clauses, const long long *xs, Py_ssize_t len) {
    if (pk_is(clauses))
        return pk_put(clauses, xs, len, 0);
    PyObject *l = int_list(xs, len);
    if (!l)
        return -1;
    int r = PyList_Append(clauses, l);
    Py_DECREF(l);
    return r;
}

static PyObject *py_support(PyObject *self, PyObject *args) {
    PyObject *clauses, *bases_o, *masks_o, *allowed_o;
    long long top;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOL", &clauses, &bases_o, &masks_o,
                          &allowed_o, &top))
        return NULL;
    if (pk_target(clauses, "clauses") < 0)
        return NULL;
    PyObject *bases = PySequence_Fast(bases_o, "bases");
    PyObject *masks = PySequence_Fast(masks_o, "masks");
    PyObject *allowed = PySequence_Fast(allowed_o, "allowed");
    PyObject *result = NULL;
    int *tup = NULL;
    long long *buf = NULL;
    if (!bases || !masks || !allowed) {
        PyErr_Clear();
        goto none;
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(masks), na = PySequence_Fast_GET_SIZE(allowed);
    if (k < 1 || k > TMAXK || PySequence_Fast_GET_SIZE(bases) != k || top < 0 ||
        top > (1LL << 40) || na > (1 << 24))
        goto none;
    uint64_t m[TMAXK];
    long long base[TMAXK];
    if (!read_cells(masks, bases, k, m, base))
        goto none;
    /* the tuples read and checked before anything is written */
    tup = (int *)malloc(sizeof(int) * (size_t)(na * k + 1));
    buf = (long long *)malloc(sizeof(long long) * (size_t)(na + 2));
    if (!tup || !buf) { PyErr_NoMemory(); goto out; }
    buf[0] = 0;
    for (Py_ssize_t t = 0; t < na; t++) {
        PyObject *x = PySequence_Fast_GET_ITEM(allowed, t);
        if (!PyTuple_Check(x) || PyTuple_GET_SIZE(x) != k)
            goto none;
        for (Py_ssize_t i = 0; i < k; i++) {
            long long d;
            if (!read_ll(PyTuple_GET_ITEM(x, i), TMAXD, &d) || d < 1 || !(m[i] >> d & 1))
                goto none;
            tup[t * k + i] = (int)d;
        }
    }
    /* the selectors, one per tuple: top + 1 .. top + na */
    for (Py_ssize_t t = 0; t < na; t++)
        buf[t] = top + 1 + t;
    if (append_ints(clauses, buf, na) < 0)
        goto out;
    for (Py_ssize_t t = 0; t < na; t++)
        for (Py_ssize_t i = 0; i < k; i++) {
            long long c2[2] = {-(top + 1 + t), base[i] + tup[t * k + i]};
            if (append_ints(clauses, c2, 2) < 0)
                goto out;
        }
    for (Py_ssize_t i = 0; i < k; i++)
        for (uint64_t x = m[i]; x; x &= x - 1) {
            int d = __builtin_ctzll(x);
            Py_ssize_t len = 0;
            buf[len++] = -(base[i] + d);
            for (Py_ssize_t t = 0; t < na; t++)
                if (tup[t * k + i] == d)
                    buf[len++] = top + 1 + t;
            if (append_ints(clauses, buf, len) < 0)
                goto out;
        }
    result = PyLong_FromLongLong(top + na);
    goto out;
none:
    result = Py_None;
    Py_INCREF(result);
out:
    free(tup);
    free(buf);
    Py_XDECREF(bases);
    Py_XDECREF(masks);
    Py_XDECREF(allowed);
    return result;
}

PyDoc_STRVAR(support_doc,
"support(clauses, bases, masks, allowed, top) -> the last variable used, or None\n\n"
"csp.sat._support: appends to `clauses` (a list, or a packed block: a bytearray of the\n"
"records of csp/_packed.h; so do sum_side and cage) the support encoding of the tuples `allowed`\n"
"(each a digit per position, of its mask) over the positions' literals base + digit, the\n"
"selectors numbered from top + 1: the same clauses in the same order. None (nothing\n"
"written) beyond this code (over 16 positions, a digit past 62 or outside its mask).");

static PyObject *py_sum_side(PyObject *self, PyObject *args) {
    PyObject *clauses, *bases_o, *masks_o, *combos_o, *sums_o, *lits_o;
    long long sel0;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOLOO", &clauses, &bases_o, &masks_o,
                          &combos_o, &sel0, &sums_o, &lits_o))
        return NULL;
    if (pk_target(clauses, "clauses") < 0)
        return NULL;
    PyObject *bases = PySequence_Fast(bases_o, "bases");
    PyObject *masks = PySequence_Fast(masks_o, "masks");
    PyObject *combos = PySequence_Fast(combos_o, "combos");
    PyObject *sums = PySequence_Fast(sums_o, "sums");
    PyObject *lits = PySequence_Fast(lits_o, "lits");
    PyObject *result = NULL;
    int *dig = NULL, *csum = NULL;
    long long *buf = NULL, *sumv = NULL, *litv = NULL;
    uint64_t *cmask = NULL;
    if (!bases || !masks || !combos || !sums || !lits) {
        PyErr_Clear();
        goto none;
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(masks), nc = PySequence_Fast_GET_SIZE(combos);
    Py_ssize_t ns = PySequence_Fast_GET_SIZE(sums);
    if (k < 1 || k > TMAXK || PySequence_Fast_GET_SIZE(bases) != k || sel0 < 1 ||
        sel0 > (1LL << 40) || nc > (1 << 24) || ns > (1 << 24) ||
        PySequence_Fast_GET_SIZE(lits) != ns)
        goto none;
    uint64_t m[TMAXK];
    long long base[TMAXK];
    if (!read_cells(masks, bases, k, m, base))
        goto none;
    /* everything read and checked before anything is written */
    dig = (int *)malloc(sizeof(int) * (size_t)(nc * k + 1));
    csum = (int *)malloc(sizeof(int) * (size_t)(nc + 1));
    cmask = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)(nc + 1));
    sumv = (long long *)malloc(sizeof(long long) * (size_t)(ns + 1));
    litv = (long long *)malloc(sizeof(long long) * (size_t)(ns + 1));
    buf = (long long *)malloc(sizeof(long long) * (size_t)(nc + TMAXK + 2));
    if (!dig || !csum || !cmask || !sumv || !litv || !buf) { PyErr_NoMemory(); goto out; }
    buf[0] = 0;
    for (Py_ssize_t q = 0; q < ns; q++) {
        if (!read_ll(PySequence_Fast_GET_ITEM(sums, q), 1LL << 20, &sumv[q]) ||
            !read_ll(PySequence_Fast_GET_ITEM(lits, q), 1LL << 40, &litv[q]) || litv[q] < 1)
            goto none;
    }
    for (Py_ssize_t t = 0; t < nc; t++) {
        PyObject *x = PySequence_Fast_GET_ITEM(combos, t);
        if (!PyTuple_Check(x) || PyTuple_GET_SIZE(x) != k)
            goto none;
        long long v = 0;
        uint64_t bits = 0;
        for (Py_ssize_t i = 0; i < k; i++) {
            long long d;
            if (!read_ll(PyTuple_GET_ITEM(x, i), TMAXD, &d) || d < 1)
                goto none;
            dig[t * k + i] = (int)d;
            v += d;
            bits |= (uint64_t)1 << d;
        }
        int found = -1;
        for (Py_ssize_t q = 0; q < ns; q++)
            if (sumv[q] == v) { found = (int)q; break; }
        if (found < 0)
            goto none;                /* a combination whose total has no literal */
        csum[t] = found;
        cmask[t] = bits;
    }
    /* per combination: its total's literal, each digit's cells, each cell's digits of it */
    for (Py_ssize_t t = 0; t < nc; t++) {
        long long s = sel0 + t;
        long long c2[2] = {-s, litv[csum[t]]};
        if (append_ints(clauses, c2, 2) < 0)
            goto out;
        for (Py_ssize_t i = 0; i < k; i++) {
            int d = dig[t * k + i];
            Py_ssize_t len = 0;
            buf[len++] = -s;
            for (Py_ssize_t j = 0; j < k; j++)
                if (m[j] >> d & 1)
                    buf[len++] = base[j] + d;
            if (append_ints(clauses, buf, len) < 0)
                goto out;
        }
        for (Py_ssize_t j = 0; j < k; j++) {
            Py_ssize_t len = 0;
            buf[len++] = -s;
            for (uint64_t x = m[j] & cmask[t]; x; x &= x - 1)
                buf[len++] = base[j] + __builtin_ctzll(x);
            if (append_ints(clauses, buf, len) < 0)
                goto out;
        }
    }
    /* per total (in the order given): its literal needs one of its combinations */
    for (Py_ssize_t q = 0; q < ns; q++) {
        Py_ssize_t len = 0;
        buf[len++] = -litv[q];
        for (Py_ssize_t t = 0; t < nc; t++)
            if (csum[t] == q)
                buf[len++] = sel0 + t;
        if (append_ints(clauses, buf, len) < 0)
            goto out;
    }
    /* per cell and digit: a combination holding it */
    for (Py_ssize_t j = 0; j < k; j++)
        for (uint64_t x = m[j]; x; x &= x - 1) {
            int d = __builtin_ctzll(x);
            Py_ssize_t len = 0;
            buf[len++] = -(base[j] + d);
            for (Py_ssize_t t = 0; t < nc; t++)
                if (cmask[t] >> d & 1)
                    buf[len++] = sel0 + t;
            if (append_ints(clauses, buf, len) < 0)
                goto out;
        }
    result = Py_True;
    Py_INCREF(result);
    goto out;
none:
    result = Py_None;
    Py_INCREF(result);
out:
    free(dig); free(csum); free(cmask); free(sumv); free(litv); free(buf);
    Py_XDECREF(bases);
    Py_XDECREF(masks);
    Py_XDECREF(combos);
    Py_XDECREF(sums);
    Py_XDECREF(lits);
    return result;
}

PyDoc_STRVAR(sum_side_doc,
"sum_side(clauses, bases, masks, combos, sel0, sums, lits) -> True, or None\n\n"
"The loops of csp.sat._sum_side after its selectors: appends to `clauses`, for the\n"
"combinations `combos` (tuples of distinct digits, one per cell, selectors sel0, sel0 + 1,\n"
"...), the same clauses in the same order; `sums` and `lits` the totals and their literals\n"
"in the order of the side's dict. None (nothing written) beyond this code.");

static PyObject *py_cage(PyObject *self, PyObject *args) {
    PyObject *clauses, *bases_o, *masks_o, *combos_o;
    long long sel0;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOL", &clauses, &bases_o, &masks_o,
                          &combos_o, &sel0))
        return NULL;
    if (pk_target(clauses, "clauses") < 0)
        return NULL;
    PyObject *bases = PySequence_Fast(bases_o, "bases");
    PyObject *masks = PySequence_Fast(masks_o, "masks");
    PyObject *combos = PySequence_Fast(combos_o, "combos");
    PyObject *result = NULL;
    int *dig = NULL, *clen = NULL;
    uint64_t *cmask = NULL;
    long long *buf = NULL;
    if (!bases || !masks || !combos) {
        PyErr_Clear();
        goto none;
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(masks), nc = PySequence_Fast_GET_SIZE(combos);
    if (k < 1 || k > TMAXK || PySequence_Fast_GET_SIZE(bases) != k || sel0 < 1 ||
        sel0 > (1LL << 40) || nc > (1 << 24))
        goto none;
    uint64_t m[TMAXK];
    long long base[TMAXK];
    if (!read_cells(masks, bases, k, m, base))
        goto none;
    dig = (int *)malloc(sizeof(int) * (size_t)(nc * TMAXD + 1));
    clen = (int *)malloc(sizeof(int) * (size_t)(nc + 1));
    cmask = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)(nc + 1));
    buf = (long long *)malloc(sizeof(long long) * (size_t)(nc + TMAXK + 2));
    if (!dig || !clen || !cmask || !buf) { PyErr_NoMemory(); goto out; }
    buf[0] = 0;
    for (Py_ssize_t t = 0; t < nc; t++) {
        PyObject *x = PySequence_Fast_GET_ITEM(combos, t);
        if (!PyTuple_Check(x) || PyTuple_GET_SIZE(x) > TMAXD)
            goto none;
        uint64_t bits = 0;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(x); i++) {
            long long d;
            if (!read_ll(PyTuple_GET_ITEM(x, i), TMAXD, &d) || d < 1 || bits >> d & 1)
                goto none;
            dig[t * TMAXD + i] = (int)d;
            bits |= (uint64_t)1 << d;
        }
        clen[t] = (int)PyTuple_GET_SIZE(x);
        cmask[t] = bits;
    }
    /* per cell and digit: a combination holding the digit */
    for (Py_ssize_t j = 0; j < k; j++)
        for (uint64_t x = m[j]; x; x &= x - 1) {
            int d = __builtin_ctzll(x);
            Py_ssize_t len = 0;
            buf[len++] = -(base[j] + d);
            for (Py_ssize_t t = 0; t < nc; t++)
                if (cmask[t] >> d & 1)
                    buf[len++] = sel0 + t;
            if (append_ints(clauses, buf, len) < 0)
                goto out;
        }
    /* per combination and digit of it: a cell holding the digit */
    for (Py_ssize_t t = 0; t < nc; t++)
        for (int i = 0; i < clen[t]; i++) {
            int d = dig[t * TMAXD + i];
            Py_ssize_t len = 0;
            buf[len++] = -(sel0 + t);
            for (Py_ssize_t j = 0; j < k; j++)
                if (m[j] >> d & 1)
                    buf[len++] = base[j] + d;
            if (append_ints(clauses, buf, len) < 0)
                goto out;
        }
    result = Py_True;
    Py_INCREF(result);
    goto out;
none:
    result = Py_None;
    Py_INCREF(result);
out:
    free(dig); free(clen); free(cmask); free(buf);
    Py_XDECREF(bases);
    Py_XDECREF(masks);
    Py_XDECREF(combos);
    return result;
}

PyDoc_STRVAR(cage_doc,
"cage(clauses, bases, masks, combos, sel0) -> True, or None\n\n"
"The loops of csp.sat._cage after its selectors: appends to `clauses`, for the digit\n"
"combinations `combos` (tuples of distinct digits, selectors sel0, sel0 + 1, ...), each\n"
"cell's digit needing a combination holding it and each combination's digit a cell: the\n"
"same clauses in the same order. None (nothing written) beyond this code.");

/* sum_combos: the combinations of the masks' digits, one per position and all different,
   in which every position has a candidate (csp.sat._sum_combos' loop) */
typedef struct {
    int k, nd;
    int dig[TMAXD + 1];
    uint64_t m[TMAXK];
    long long budget;
    int pick[TMAXK];
    PyObject *out;
    int over, failed;
} Combos;

static void combos_rec(Combos *C, int i, int j, uint64_t mask) {
    if (C->over || C->failed)
        return;
    if (j == C->k) {
        for (int p = 0; p < C->k; p++)
            if (!(C->m[p] & mask))
                return;
        if (append_int_tuple(C->out, C->pick, C->k) < 0) { C->failed = 1; return; }
        if (PyList_GET_SIZE(C->out) > C->budget)
            C->over = 1;
        return;
    }
    for (int a = i; a <= C->nd - (C->k - j); a++) {   /* the next digit, in order */
        C->pick[j] = C->dig[a];
        combos_rec(C, a + 1, j + 1, mask | (uint64_t)1 << C->dig[a]);
        if (C->over || C->failed)
            return;
    }
}

static PyObject *py_sum_combos(PyObject *self, PyObject *args) {
    PyObject *masks_o;
    long long budget;
    (void)self;
    if (!PyArg_ParseTuple(args, "OL", &masks_o, &budget))
        return NULL;
    PyObject *masks = PySequence_Fast(masks_o, "masks");
    if (!masks) { PyErr_Clear(); Py_RETURN_NONE; }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(masks);
    Combos C;
    PyObject *result = NULL;
    if (k < 2 || k > TMAXK || budget < 0 || !read_masks(masks, k, C.m)) {
        Py_DECREF(masks);
        Py_RETURN_NONE;
    }
    Py_DECREF(masks);
    uint64_t uni = 0;
    for (Py_ssize_t i = 0; i < k; i++)
        uni |= C.m[i];
    C.k = (int)k;
    C.nd = 0;
    for (uint64_t x = uni; x; x &= x - 1)
        C.dig[C.nd++] = __builtin_ctzll(x);
    C.budget = budget;
    C.over = C.failed = 0;
    C.out = PyList_New(0);
    if (!C.out)
        return NULL;
    combos_rec(&C, 0, 0, 0);
    if (C.failed) {
        Py_DECREF(C.out);
        return NULL;
    }
    if (C.over) {                        /* past the budget: the caller's None */
        Py_DECREF(C.out);
        result = PyTuple_New(0);
        return result;
    }
    return C.out;
}

PyDoc_STRVAR(sum_combos_doc,
"sum_combos(masks, budget) -> list of tuples, () past the budget, or None\n\n"
"The loop of csp.sat._sum_combos over two positions or more: the sets of different digits\n"
"one per position (each position's mask holding one of them), as increasing tuples in the\n"
"order of itertools.combinations of the masks' digits; () when there are more than\n"
"`budget` (the caller's None). None beyond this code (over 16 positions, a digit 0 or\n"
"past 62).");


/* triple_supports(doms, table): csp.constraints.function.table_supports(table, *doms) in C
 * (the compiled engine loop's scan of a between or lockout line's cell, kernel_scan):
 * doms three candidate masks, table per digit x a list of per digit y the mask of z */
static PyObject *py_triple_supports(PyObject *self, PyObject *args) {
    PyObject *doms, *table;
    if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &doms, &PyList_Type, &table)) return NULL;
    if (PyList_GET_SIZE(doms) != 3) {
        PyErr_SetString(PyExc_ValueError, "three masks expected");
        return NULL;
    }
    unsigned long long d[3];
    for (int i = 0; i < 3; i++) {
        d[i] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(doms, i));
        if (d[i] == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    }
    Py_ssize_t rows = PyList_GET_SIZE(table);
    unsigned long long sa = 0, sb = 0, sc = 0;
    for (int x = 0; x < 64; x++) {
        if (!(d[0] >> x & 1)) continue;
        if (x >= rows) { PyErr_SetString(PyExc_ValueError, "a digit past the table"); return NULL; }
        PyObject *row = PyList_GET_ITEM(table, x);
        if (!PyList_Check(row)) { PyErr_SetString(PyExc_TypeError, "table rows must be lists"); return NULL; }
        Py_ssize_t cols = PyList_GET_SIZE(row);
        for (int y = 0; y < 64; y++) {
            if (!(d[1] >> y & 1)) continue;
            if (y >= cols) { PyErr_SetString(PyExc_ValueError, "a digit past the table"); return NULL; }
            unsigned long long z = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(row, y));
            if (z == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
            z &= d[2];
            if (z) {
                sa |= 1ULL << x;
                sb |= 1ULL << y;
                sc |= z;
            }
        }
    }
    if (!sc) Py_RETURN_NONE;
    return Py_BuildValue("[KKK]", sa, sb, sc);
}

PyDoc_STRVAR(triple_supports_doc,
"triple_supports(doms, table) -> [sa, sb, sc] or None\n\n"
"csp.constraints.function.table_supports(table, *doms) in C: the digits of each of three\n"
"cells (candidate masks doms) in an allowed triple of table (per x, per y, the mask of z);\n"
"None when none is.");

/* the clause writers through the pending packed records (csp/_packed.h): appended to
 * their block when the call writes (not when it fails or answers None) */
static PyObject *py_support_pk(PyObject *self, PyObject *args) { PK_CALL(py_support, self, args, 1); }
static PyObject *py_sum_side_pk(PyObject *self, PyObject *args) { PK_CALL(py_sum_side, self, args, 1); }
static PyObject *py_cage_pk(PyObject *self, PyObject *args) { PK_CALL(py_cage, self, args, 1); }

static PyMethodDef methods[] = {
    {"linear_supports", py_linear_supports, METH_VARARGS, linear_supports_doc},
    {"linear_scan", py_linear_scan, METH_VARARGS, linear_scan_doc},
    {"linear_tuples", py_linear_tuples, METH_VARARGS, linear_tuples_doc},
    {"support", py_support_pk, METH_VARARGS, support_doc},
    {"sum_side", py_sum_side_pk, METH_VARARGS, sum_side_doc},
    {"cage", py_cage_pk, METH_VARARGS, cage_doc},
    {"sum_combos", py_sum_combos, METH_VARARGS, sum_combos_doc},
    {"triple_supports", py_triple_supports, METH_VARARGS, triple_supports_doc},
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
