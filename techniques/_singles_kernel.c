/* Singles (techniques/singles.py): the first full house, naked single or hidden single of
 * a state, as the run's default strategy would find it with the three finders.
 *
 * The compiled form of singles._first_single, which stays the reference and the fallback
 * (csp/kernel.py): both give identical results, which tests/techniques/test_singles_kernel.py
 * checks on many states.
 *
 * Interface:
 *   first_single(cand, placed, table, n, stages) -> (stage, cell, digit, house) | None
 *       cand, placed: lists of ints of one length (the state's; a placed cell counts as
 *       having no candidate, as in techniques.analysis.Analysis);
 *       table: bytes, the cells of each full house as native unsigned 16-bit ints, n per
 *       house, in the order of LinkTables.full;
 *       n: the digits (1..62: a candidate mask fits 64 bits);
 *       stages: bytes of stage codes in the plan's order: 0 full house (the first house
 *       with one open cell, when that cell has one candidate), 1 naked single (the first
 *       cell with one candidate), 2 hidden single (the first house with a digit in one of
 *       its cells, its lowest such digit).
 *       house: the position in the table (-1 for a naked single).
 * Every argument is checked; a bad one raises a Python exception (never a crash).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define MAXCELLS 4096
#define MAXN 62

static int high64(uint64_t x) { return 63 - __builtin_clzll(x); }

static PyObject *first_single(PyObject *self, PyObject *args) {
    PyObject *cand, *placed;
    Py_buffer table;
    int n;
    Py_buffer stages;
    if (!PyArg_ParseTuple(args, "O!O!y*iy*", &PyList_Type, &cand, &PyList_Type, &placed,
                          &table, &n, &stages))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t size = PyList_GET_SIZE(cand);
    if (PyList_GET_SIZE(placed) != size || size > MAXCELLS) {
        PyErr_SetString(PyExc_ValueError, "_singles_kernel: cand and placed must have one "
                                          "length, at most 4096");
        goto done;
    }
    if (n < 1 || n > MAXN || table.len % (2 * (Py_ssize_t)n) != 0 || stages.len > 3) {
        PyErr_SetString(PyExc_ValueError, "_singles_kernel: bad n, table or stages");
        goto done;
    }
    uint64_t u[MAXCELLS];
    for (Py_ssize_t c = 0; c < size; c++) {
        int p = PyObject_IsTrue(PyList_GET_ITEM(placed, c));
        if (p < 0)
            goto done;
        PyObject *m = PyList_GET_ITEM(cand, c);
        if (!PyLong_Check(m)) {
            PyErr_SetString(PyExc_TypeError, "_singles_kernel: a candidate mask is not an int");
            goto done;
        }
        unsigned long long v = PyLong_AsUnsignedLongLong(m);
        if (v == (unsigned long long)-1 && PyErr_Occurred())
            goto done;
        u[c] = p ? 0 : (uint64_t)v;
    }
    const uint16_t *cells = (const uint16_t *)table.buf;
    Py_ssize_t nfull = table.len / (2 * (Py_ssize_t)n);
    for (Py_ssize_t i = 0; i < nfull * n; i++) {
        if (cells[i] >= size) {
            PyErr_SetString(PyExc_ValueError, "_singles_kernel: a house cell is out of range");
            goto done;
        }
    }
    const unsigned char *st = (const unsigned char *)stages.buf;
    for (Py_ssize_t s = 0; s < stages.len; s++) {
        if (st[s] == 0) {                       /* full house */
            for (Py_ssize_t h = 0; h < nfull; h++) {
                const uint16_t *hc = cells + h * n;
                int open = 0, last = -1;
                for (int k = 0; k < n && open < 2; k++)
                    if (u[hc[k]]) {
                        open++;
                        last = hc[k];
                    }
                if (open == 1) {
                    uint64_t m = u[last];
                    if (!(m & (m - 1))) {
                        result = Py_BuildValue("(iiin)", 0, last, high64(m), h);
                        goto done;
                    }
                }
            }
        } else if (st[s] == 1) {                /* naked single */
            for (Py_ssize_t c = 0; c < size; c++) {
                uint64_t m = u[c];
                if (m && !(m & (m - 1))) {
                    result = Py_BuildValue("(inii)", 1, c, high64(m), -1);
                    goto done;
                }
            }
        } else if (st[s] == 2) {                /* hidden single */
            for (Py_ssize_t h = 0; h < nfull; h++) {
                const uint16_t *hc = cells + h * n;
                uint64_t once = 0, twice = 0;
                for (int k = 0; k < n; k++) {
                    uint64_t m = u[hc[k]];
                    twice |= once & m;
                    once |= m;
                }
                once &= ~twice;
                if (once) {
                    int d = __builtin_ctzll(once);
                    for (int k = 0; k < n; k++)
                        if (u[hc[k]] >> d & 1) {
                            result = Py_BuildValue("(iiin)", 2, (int)hc[k], d, h);
                            goto done;
                        }
                }
            }
        } else {
            PyErr_SetString(PyExc_ValueError, "_singles_kernel: unknown stage");
            goto done;
        }
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyBuffer_Release(&table);
    PyBuffer_Release(&stages);
    return result;
}

static PyMethodDef methods[] = {
    {"first_single", first_single, METH_VARARGS,
     "first_single(cand, placed, table, n, stages) -> (stage, cell, digit, house) or None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_singles_kernel",
                                    "Singles: the first full house, naked or hidden single.",
                                    -1, methods};

PyMODINIT_FUNC PyInit__singles_kernel(void) { return PyModule_Create(&module); }
