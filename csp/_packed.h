/* Packed clause blocks (csp/sat.py, `Encoding(packed=True)`): the clause writers of
 * csp/_auto_kernel.c and csp/constraints/_linear_kernel.c append to a `bytearray` instead
 * of a list when given one, and csp/_enum_kernel.c reads such a block among the clauses
 * without a Python object per clause.
 *
 * A block is a run of records of native C ints: a header, the clause's length << 1 (| 1
 * for an "at most one" group, the tuple of a compact encoding), then its literals (signed
 * variables). `csp.sat.unpacked` reads a block back into the lists and tuples the writer
 * would have appended to a list, in the same order.
 *
 * A writer call gathers its records in a pending buffer per block (at most PK_TARGETS
 * blocks in one call: the clauses and the extra clauses) and appends them to the blocks
 * when it returns (`pk_done`, one resize and copy a block): a call that fails or declines
 * leaves its blocks as they were. The buffers are the call's own (`PK_CALL`: on its C
 * stack, `pk_cur` pointing at them for the call's duration and set back after), so a
 * writer entered again from within one (a finaliser run by an allocation) keeps its
 * records apart. */
#ifndef CSP_PACKED_H
#define CSP_PACKED_H

#include <Python.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define PK_TARGETS 2

typedef struct {
    PyObject *ba;          /* the block (borrowed: the writer's argument) */
    int *a;
    Py_ssize_t n, cap;
} PkBuf;

/* the pending buffers of the writer call under way (NULL: none) */
static PkBuf *pk_cur = NULL;

/* `out` is a packed block (else a list) */
static inline int pk_is(PyObject *out) { return PyByteArray_CheckExact(out); }

/* the pending buffer of block `ba`, registered on first use; NULL (error set) when the
 * call writes to too many blocks */
static PkBuf *pk_of(PyObject *ba) {
    PkBuf *PK = pk_cur;
    if (!PK) {
        PyErr_SetString(PyExc_RuntimeError, "packed: a record outside a writer call");
        return NULL;
    }
    for (int i = 0; i < PK_TARGETS; i++) {
        if (PK[i].ba == ba) return &PK[i];
        if (PK[i].ba == NULL) { PK[i].ba = ba; PK[i].n = 0; return &PK[i]; }
    }
    PyErr_SetString(PyExc_RuntimeError, "packed: too many blocks in one call");
    return NULL;
}

static int pk_reserve(PkBuf *b, Py_ssize_t more) {
    if (b->n + more <= b->cap) return 0;
    Py_ssize_t cap = b->cap ? 2 * b->cap : 1024;
    while (cap < b->n + more) cap *= 2;
    int *a = (int *)realloc(b->a, (size_t)cap * sizeof(int));
    if (!a) { PyErr_NoMemory(); return -1; }
    b->a = a;
    b->cap = cap;
    return 0;
}

/* one record: the `len` literals `xs` (a group when `group`); -1 with the error set */
static int pk_put(PyObject *ba, const long long *xs, Py_ssize_t len, int group) {
    PkBuf *b = pk_of(ba);
    if (!b) return -1;
    if (len > (INT_MAX >> 1) - 1) { PyErr_SetString(PyExc_OverflowError, "packed: clause too long"); return -1; }
    if (pk_reserve(b, len + 1) < 0) return -1;
    int *p = b->a + b->n;
    p[0] = (int)(len << 1) | (group ? 1 : 0);
    for (Py_ssize_t i = 0; i < len; i++) {
        long long x = xs[i];
        if (x > INT_MAX || x < -(long long)INT_MAX) {
            PyErr_SetString(PyExc_OverflowError, "packed: literal out of range");
            return -1;
        }
        p[1 + i] = (int)x;
    }
    b->n += len + 1;
    return 0;
}

/* the pending records appended to their blocks; 0, or -1 with the error set (nothing
 * appended then) */
static int pk_finish(PkBuf *PK) {
    int i;
    for (i = 0; i < PK_TARGETS && PK[i].ba; i++) {
        PyObject *ba = PK[i].ba;
        Py_ssize_t old = PyByteArray_GET_SIZE(ba), add = PK[i].n * (Py_ssize_t)sizeof(int);
        if (!add) continue;
        if (PyByteArray_Resize(ba, old + add) < 0) {
            for (int j = 0; j < i; j++)    /* undo the blocks already grown */
                PyByteArray_Resize(PK[j].ba, PyByteArray_GET_SIZE(PK[j].ba) -
                                   PK[j].n * (Py_ssize_t)sizeof(int));
            return -1;
        }
        memcpy(PyByteArray_AS_STRING(ba) + old, PK[i].a, (size_t)add);
    }
    return 0;
}

/* a writer's result through the call's pending buffers `PK` (pk_cur during the call,
 * `prev` the one before): the records appended unless the result is NULL, or None when
 * `none_declines` (a writer that answers None has written nothing); the buffers freed */
static PyObject *pk_done(PyObject *r, int none_declines, PkBuf *PK, PkBuf *prev) {
    if (r != NULL && !(none_declines && r == Py_None) && pk_finish(PK) < 0) {
        Py_DECREF(r);
        r = NULL;
    }
    for (int i = 0; i < PK_TARGETS; i++) free(PK[i].a);
    pk_cur = prev;
    return r;
}

/* a writer `f(self, args)` called with its own pending buffers */
#define PK_CALL(f, self, args, none_declines) do { \
        PkBuf pk_bufs_[PK_TARGETS], *pk_prev_ = pk_cur; \
        memset(pk_bufs_, 0, sizeof pk_bufs_); \
        pk_cur = pk_bufs_; \
        return pk_done(f(self, args), none_declines, pk_bufs_, pk_prev_); \
    } while (0)

/* an output argument: a list or a packed block */
static int pk_target(PyObject *o, const char *what) {
    if (PyList_Check(o) || pk_is(o)) return 0;
    PyErr_Format(PyExc_TypeError, "%s: a list or a bytearray expected", what);
    return -1;
}

#endif
