/* 128-bit cell masks shared by the compiled kernels of techniques/ (_fish_kernel.c,
 * _als_kernel.c): grids of at most 128 cells, a cell set in one unsigned __int128, read
 * from and written to Python ints. Include after Python.h, with KERNEL_NAME defined (the
 * module's name, for error messages); call u128_init() in the module's init function. */
#ifndef SUDOKU_CSP_U128_H
#define SUDOKU_CSP_U128_H

#include <stdint.h>

typedef unsigned __int128 u128;

static PyObject *SIXTY_FOUR = NULL;

/* 0, or -1 with an exception set */
static int u128_init(void) {
    if (!SIXTY_FOUR) SIXTY_FOUR = PyLong_FromLong(64);
    return SIXTY_FOUR ? 0 : -1;
}

static inline int popc(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

static inline int lowbit(u128 x) {     /* x != 0 */
    uint64_t lo = (uint64_t)x;
    if (lo) return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

/* a non-negative Python int below 2**128 into a u128; -1 with an exception set otherwise
 * (TypeError, ValueError for a negative one, OverflowError past 128 bits) */
static int to_u128(PyObject *o, u128 *out) {
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, KERNEL_NAME ": masks must be ints");
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (!overflow) {
        if (v < 0) {
            PyErr_SetString(PyExc_ValueError, KERNEL_NAME ": negative mask");
            return -1;
        }
        *out = (u128)(uint64_t)v;
        return 0;
    }
    if (overflow < 0) {
        PyErr_SetString(PyExc_ValueError, KERNEL_NAME ": negative mask");
        return -1;
    }
    unsigned long long lo = PyLong_AsUnsignedLongLongMask(o);
    if (lo == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    PyObject *h = PyNumber_Rshift(o, SIXTY_FOUR);
    if (!h) return -1;
    unsigned long long hi = PyLong_AsUnsignedLongLong(h);   /* OverflowError: >= 2**128 */
    Py_DECREF(h);
    if (hi == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = ((u128)hi << 64) | (u128)lo;
    return 0;
}

/* a u128 as a Python int (a new reference; NULL with an exception set) */
static inline PyObject *from_u128(u128 x) {
    uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;
    if (!hi) return PyLong_FromUnsignedLongLong(lo);
    PyObject *a = PyLong_FromUnsignedLongLong(hi);
    if (!a) return NULL;
    PyObject *b = PyNumber_Lshift(a, SIXTY_FOUR);
    Py_DECREF(a);
    if (!b) return NULL;
    PyObject *c = PyLong_FromUnsignedLongLong(lo);
    if (!c) { Py_DECREF(b); return NULL; }
    PyObject *r = PyNumber_Or(b, c);
    Py_DECREF(b);
    Py_DECREF(c);
    return r;
}

#endif
