/* techniques._fish_kernel: the fish search of techniques/fish.py (`search`) in C.
 *
 * The same enumeration as the Python code, step for step: base sets in the same order, the
 * same cuts (fin budget, endo fins, cover bound, fin pruning, the barren-base-set memo), the
 * cover search by the lowest uncovered base candidate (cover_rec / last_cover), so the same
 * fish come out in the same order with the same fins and eliminations. The Python code stays
 * the reference and the fallback (csp/kernel.py); tests/techniques/test_fish_kernel.py
 * compares the two.
 *
 * Cells are bits of an unsigned __int128 (grids of at most 128 cells); cover houses bits of a
 * uint64 (at most 64 covers). Anything larger raises OverflowError / ValueError, and the caller
 * takes the Python path. Every argument is checked; every loop is bounded by bit counts.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#define KERNEL_NAME "_fish_kernel"
#include "_u128.h"

#define MAXCELLS 128
#define MAXCOVERS 64
#define MAXBASES 128
#define MAXN 16
/* the deadline's pace: fish.py TICK_EVERY, TICK_COST */
#define TICK_EVERY 8
#define TICK_COST 256

/* ---- the run's barren base sets as a C hash set (fish.py: _barren) -----------------------
 * A capsule ("techniques._fish_kernel.barren") holding (sorted base house ids, U) keys, the
 * same keys as the Python set of the reference search; looked up and added without making a
 * Python object per base set. Open addressing, grown by doubling up to BARREN_MAX entries
 * (past that nothing more is added: a base set not remembered is searched again, the same
 * result). Keys whose house ids do not fit in 16 bits are not remembered. */
#define BARREN_NAME "techniques._fish_kernel.barren"
#define BARREN_MAX (1 << 20)

typedef struct {
    u128 U;
    uint16_t ids[MAXN];
    uint8_t n, used;
} BEntry;

typedef struct {
    size_t cap, count;                  /* cap: a power of two */
    BEntry *e;
} BTab;

static uint64_t mix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static uint64_t bkey_hash(u128 U, const uint16_t *ids, int n) {
    uint64_t h = mix64((uint64_t)U) ^ mix64((uint64_t)(U >> 64) + 0x51ed27ULL);
    for (int j = 0; j < n; j++) h = mix64(h ^ ids[j]);
    return h;
}

/* the slot of the key: its entry, or the empty slot where it would go */
static BEntry *btab_slot(BTab *t, u128 U, const uint16_t *ids, int n) {
    size_t mask = t->cap - 1;
    size_t i = (size_t)bkey_hash(U, ids, n) & mask;
    for (size_t probe = 0; probe < t->cap; probe++) {
        BEntry *e = &t->e[i];
        if (!e->used) return e;
        if (e->U == U && e->n == n && !memcmp(e->ids, ids, (size_t)n * sizeof(uint16_t)))
            return e;
        i = (i + 1) & mask;
    }
    return NULL;                        /* full (never: the load stays at most a half) */
}

/* 0, or -1 on no memory (the key is then just not remembered) */
static int btab_add(BTab *t, u128 U, const uint16_t *ids, int n) {
    if ((t->count + 1) * 2 > t->cap) {
        if (t->cap >= BARREN_MAX) return 0;
        size_t cap = t->cap ? t->cap * 2 : 256;
        BEntry *e = (BEntry *)calloc(cap, sizeof(BEntry));
        if (!e) return -1;
        BTab nt = {cap, 0, e};
        for (size_t j = 0; j < t->cap; j++) {
            BEntry *o = &t->e[j];
            if (!o->used) continue;
            BEntry *d = btab_slot(&nt, o->U, o->ids, o->n);
            *d = *o;
            nt.count++;
        }
        free(t->e);
        *t = nt;
    }
    BEntry *e = btab_slot(t, U, ids, n);
    if (!e || e->used) return 0;
    e->U = U;
    memcpy(e->ids, ids, (size_t)n * sizeof(uint16_t));
    e->n = (uint8_t)n;
    e->used = 1;
    t->count++;
    return 0;
}

static void btab_free(PyObject *cap) {
    BTab *t = (BTab *)PyCapsule_GetPointer(cap, BARREN_NAME);
    if (t) {
        free(t->e);
        free(t);
    }
}

PyDoc_STRVAR(barren_new_doc,
"barren_new() -> capsule\n\n"
"An empty set of barren base sets for search()'s barren argument (a C hash set).");

static PyObject *py_barren_new(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    BTab *t = (BTab *)calloc(1, sizeof(BTab));
    if (!t) return PyErr_NoMemory();
    PyObject *cap = PyCapsule_New(t, BARREN_NAME, btab_free);
    if (!cap) free(t);
    return cap;
}

PyDoc_STRVAR(barren_keys_doc,
"barren_keys(capsule) -> set\n\n"
"The keys of a barren_new() set as the Python search keeps them: (bases tuple, U).");

static PyObject *py_barren_keys(PyObject *self, PyObject *cap) {
    (void)self;
    BTab *t = (BTab *)PyCapsule_GetPointer(cap, BARREN_NAME);
    if (!t) return NULL;
    PyObject *out = PySet_New(NULL);
    if (!out) return NULL;
    for (size_t j = 0; j < t->cap; j++) {
        BEntry *e = &t->e[j];
        if (!e->used) continue;
        PyObject *b = PyTuple_New(e->n);
        if (!b) goto fail;
        for (int q = 0; q < e->n; q++) {
            PyObject *v = PyLong_FromLong(e->ids[q]);
            if (!v) { Py_DECREF(b); goto fail; }
            PyTuple_SET_ITEM(b, q, v);
        }
        PyObject *u = from_u128(e->U);
        if (!u) { Py_DECREF(b); goto fail; }
        PyObject *k = PyTuple_Pack(2, b, u);
        Py_DECREF(b);
        Py_DECREF(u);
        if (!k) goto fail;
        int r = PySet_Add(out, k);
        Py_DECREF(k);
        if (r < 0) goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* one leaf of the cover search: (covers, exo fins, common, V, twice) as in fish.py */
typedef struct {
    u128 fins, com, V, twice;
    int8_t cov[MAXN];
} Leaf;

typedef struct {
    /* the search's data */
    int n, nb, nc, max_fins, max_endo, need_elims, fin_prune, cover_bound;
    u128 P;
    long base_id[MAXBASES];
    u128 base_mask[MAXBASES];
    long cover_id[MAXCOVERS];
    u128 cm[MAXCOVERS];
    int cover_of_base[MAXBASES];        /* index of the base house among the covers, or -1 */
    u128 peers[MAXCELLS];
    uint8_t ncc[MAXCELLS];              /* cell -> the covers holding it, ascending */
    uint8_t cc[MAXCELLS][MAXCOVERS];
    int partition, at_most_two;
    u128 multi;
    uint64_t touch[MAXBASES];
    PyObject *barren;                   /* set or NULL */
    BTab *btab;                         /* or a barren_new() table, or NULL */
    PyObject *tick;                     /* callable or NULL */
    long nbase;                         /* complete base sets so far (the tick's pace) */
    PyObject *out;                      /* list of result tuples */
    /* the current base set */
    u128 target, baseU, deadU;
    int nnear;
    u128 near[MAXCOVERS];
    int chosen_b[MAXN];                 /* base indices */
    int chosen_c[MAXN];                 /* cover indices of the cover search */
    Leaf *found;
    Py_ssize_t nfound, capfound;
    int stopped;
    int error;
} S;

static int push_leaf(S *s, int k, int last, u128 fins, u128 com, u128 V, u128 twice) {
    if (s->nfound == s->capfound) {
        Py_ssize_t cap = s->capfound ? s->capfound * 2 : 64;
        Leaf *f = (Leaf *)realloc(s->found, (size_t)cap * sizeof(Leaf));
        if (!f) { PyErr_NoMemory(); s->error = 1; return -1; }
        s->found = f;
        s->capfound = cap;
    }
    Leaf *L = &s->found[s->nfound++];
    for (int j = 0; j < k; j++) L->cov[j] = (int8_t)s->chosen_c[j];
    L->cov[k] = (int8_t)last;
    L->fins = fins;
    L->com = com;
    L->V = V;
    L->twice = twice;
    return 0;
}

/* the sum of the `take` largest |near[j] & rem| (the `take` best kept in a small sorted
 * array as the values come: take <= n <= MAXN; no sort of all of them) */
static int best_sum(S *s, u128 rem, int take) {
    if (take <= 0) return 0;
    if (take > MAXN) take = MAXN;
    int top[MAXN];              /* descending, `have` of them */
    int have = 0;
    for (int j = 0; j < s->nnear; j++) {
        int x = popc(s->near[j] & rem);
        if (have == take) {
            if (x <= top[take - 1]) continue;
            have--;             /* the smallest kept goes */
        }
        int q = have++;
        while (q > 0 && top[q - 1] < x) { top[q] = top[q - 1]; q--; }
        top[q] = x;
    }
    int sum = 0;
    for (int j = 0; j < have; j++) sum += top[j];
    return sum;
}

static void last_cover(S *s, int k, u128 rem, uint64_t forb, u128 fins, u128 common, u128 V,
                       u128 twice, u128 dead) {
    int nf = popc(fins);
    for (;;) {
        if (s->error) return;
        u128 low = rem & (~rem + 1);
        int x = lowbit(rem);
        uint64_t f2 = forb;
        int first = -1;
        for (int t = 0; t < s->ncc[x]; t++) {
            int i = s->cc[x][t];
            if (forb >> i & 1) continue;
            if (first < 0) first = i;
            f2 |= (uint64_t)1 << i;
            u128 m = s->cm[i];
            dead |= m;
            u128 r2 = rem & ~m;
            if (!r2) {
                if (push_leaf(s, k, i, fins, common, V | m, twice | (V & m)) < 0) return;
                continue;
            }
            u128 f = fins | r2;
            if (popc(f) > s->max_fins) continue;
            u128 V2 = V | m;
            u128 com;
            if (s->fin_prune) {
                com = common & s->target & ~f & ((V2 & ~s->baseU) | twice | (V & m));
                while (r2 && com) {
                    u128 lo = r2 & (~r2 + 1);
                    com &= s->peers[lowbit(r2)];
                    r2 ^= lo;
                }
                if (!com) continue;
            } else {
                com = common;
                while (r2) {
                    u128 lo = r2 & (~r2 + 1);
                    com &= s->peers[lowbit(r2)];
                    r2 ^= lo;
                }
            }
            if (push_leaf(s, k, i, f, com, V2, twice | (V & m)) < 0) return;
        }
        if (nf >= s->max_fins) return;
        u128 c2 = common & s->peers[x] & s->P;
        if (s->partition && first >= 0) c2 &= ~s->cm[first];
        if (!((c2 & s->target & ~(dead & s->deadU)) || !s->fin_prune)) return;
        rem ^= low;
        if (!rem) return;
        forb = f2;
        fins |= low;
        nf += 1;
        common = c2;
    }
}

static void cover_rec(S *s, int k, u128 rem, uint64_t forb, u128 fins, u128 common, u128 V,
                      u128 twice, u128 dead) {
    if (s->error) return;
    int n = s->n;
    int excess = popc(rem) - s->max_fins + popc(fins);
    if (excess > 0 && s->cover_bound && (k || fins)) {
        if (best_sum(s, rem, n - k) < excess) return;
    }
    int x = lowbit(rem);
    int to_last = (k + 2 == n);
    uint64_t f2 = forb;
    int first = -1;
    for (int t = 0; t < s->ncc[x]; t++) {
        int i = s->cc[x][t];
        if (forb >> i & 1) continue;
        if (first < 0) first = i;
        u128 m = s->cm[i];
        if (rem & ~m) {
            s->chosen_c[k] = i;
            if (to_last)
                last_cover(s, k + 1, rem & ~m, f2, fins, common, V | m, twice | (V & m), dead);
            else
                cover_rec(s, k + 1, rem & ~m, f2, fins, common, V | m, twice | (V & m), dead);
            if (s->error) return;
        }
        f2 |= (uint64_t)1 << i;
        dead |= m;
    }
    if (popc(fins) < s->max_fins && (rem & (rem - 1))) {
        u128 c2 = common & s->peers[x] & s->P;
        if (s->partition && first >= 0) c2 &= ~s->cm[first];
        if ((c2 & s->target & ~(dead & s->deadU)) || !s->fin_prune)
            cover_rec(s, k, rem & ~((u128)1 << x), f2, fins | ((u128)1 << x), c2, V, twice,
                      dead);
    }
}

static int cmp_long(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* a tuple of the chosen base houses */
static PyObject *bases_tuple(S *s) {
    PyObject *t = PyTuple_New(s->n);
    if (!t) return NULL;
    for (int j = 0; j < s->n; j++) {
        PyObject *v = PyLong_FromLong(s->base_id[s->chosen_b[j]]);
        if (!v) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, j, v);
    }
    return t;
}

static PyObject *tuple6(PyObject *a, PyObject *b, u128 U, u128 fins, u128 endo, u128 elims) {
    PyObject *t = PyTuple_New(6);
    if (!t) return NULL;
    Py_INCREF(a);
    PyTuple_SET_ITEM(t, 0, a);
    PyTuple_SET_ITEM(t, 1, b);          /* b: a new reference, stolen */
    u128 v[4] = {U, fins, endo, elims};
    for (int j = 0; j < 4; j++) {
        PyObject *o = from_u128(v[j]);
        if (!o) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, 2 + j, o);
    }
    return t;
}

/* a complete base set: the cover search and its fish (fish.py: base_rec, len(chosen) == n) */
static void base_set(S *s, u128 U, u128 endo, u128 common) {
    int n = s->n;
    s->baseU = U;
    s->deadU = s->at_most_two ? U : 0;
    /* the deadline: one tick of TICK_COST every TICK_EVERY complete base sets, from the
     * first (fish.py's search_python does the same) */
    if (s->tick && s->nbase++ % TICK_EVERY == 0) {
        PyObject *r = PyObject_CallFunction(s->tick, "i", TICK_COST);
        if (!r) { s->error = 1; return; }
        int t = PyObject_IsTrue(r);
        Py_DECREF(r);
        if (t < 0) { s->error = 1; return; }
        if (t) { s->stopped = 1; return; }
    }
    PyObject *bkey = NULL, *btup = NULL;
    uint16_t ids[MAXN];
    int ids_ok = 0;
    if (s->btab) {
        ids_ok = 1;
        for (int j = 0; j < n; j++) {
            long id = s->base_id[s->chosen_b[j]];
            if (id < 0 || id > 65535) { ids_ok = 0; break; }
            ids[j] = (uint16_t)id;
        }
        if (ids_ok && s->btab->cap) {
            BEntry *e = btab_slot(s->btab, U, ids, n);
            if (e && e->used) return;
        }
    } else if (s->barren) {
        btup = bases_tuple(s);
        if (!btup) { s->error = 1; return; }
        PyObject *Uo = from_u128(U);
        if (!Uo) { Py_DECREF(btup); s->error = 1; return; }
        bkey = PyTuple_Pack(2, btup, Uo);
        Py_DECREF(Uo);
        if (!bkey) { Py_DECREF(btup); s->error = 1; return; }
        int in = PySet_Contains(s->barren, bkey);
        if (in != 0) {
            if (in < 0) s->error = 1;
            Py_DECREF(bkey);
            Py_DECREF(btup);
            return;
        }
    }
    s->nfound = 0;
    uint64_t base_forb = 0;
    for (int j = 0; j < n; j++) {
        int ci = s->cover_of_base[s->chosen_b[j]];
        if (ci >= 0) base_forb |= (uint64_t)1 << ci;
    }
    s->nnear = 0;
    for (int i = 0; i < s->nc; i++)
        if ((s->cm[i] & U) && !(base_forb >> i & 1)) s->near[s->nnear++] = s->cm[i];
    u128 rem = U & ~endo;
    if (n > 1 && s->cover_bound) {
        int excess = popc(rem) - s->max_fins;
        if (excess > 0 && best_sum(s, rem, n) < excess) goto done;
    }
    s->target = s->P & ~U;
    if (!s->partition) {
        u128 cann = U & s->multi;
        if (base_forb) {
            u128 it = cann;
            while (it) {
                int c = lowbit(it);
                it &= it - 1;
                int cnt = 0;
                for (int t = 0; t < s->ncc[c]; t++)
                    if (!(base_forb >> s->cc[c][t] & 1)) cnt++;
                if (cnt < 2) cann &= ~((u128)1 << c);
            }
        }
        s->target |= cann;
    }
    if (rem) {
        if (n == 1)
            last_cover(s, 0, rem, base_forb, 0, common, 0, 0, 0);
        else
            cover_rec(s, 0, rem, base_forb, 0, common, 0, 0, 0);
        if (s->error) goto done;
    }
    int some = 0;
    for (Py_ssize_t j = 0; j < s->nfound; j++) {
        Leaf *L = &s->found[j];
        u128 fins = L->fins | endo;
        u128 elims = (L->V & ~U) | (L->twice & U & ~fins);
        if (fins) {
            elims &= L->com & ~fins;
            if (!s->fin_prune) elims = L->V & ~U & ~fins;
        }
        if (elims || !s->need_elims) {
            some = 1;
            if (!btup) {
                btup = bases_tuple(s);
                if (!btup) { s->error = 1; goto done; }
            }
            long cv[MAXN];
            for (int q = 0; q < n; q++) cv[q] = s->cover_id[(int)L->cov[q]];
            qsort(cv, (size_t)n, sizeof(long), cmp_long);
            PyObject *ct = PyTuple_New(n);
            if (!ct) { s->error = 1; goto done; }
            for (int q = 0; q < n; q++) {
                PyObject *v = PyLong_FromLong(cv[q]);
                if (!v) { Py_DECREF(ct); s->error = 1; goto done; }
                PyTuple_SET_ITEM(ct, q, v);
            }
            PyObject *r = tuple6(btup, ct, U, fins, endo, elims);
            if (!r) { Py_DECREF(ct); s->error = 1; goto done; }
            int a = PyList_Append(s->out, r);
            Py_DECREF(r);
            if (a < 0) { s->error = 1; goto done; }
        }
    }
    if (bkey && !some) {
        if (PySet_Add(s->barren, bkey) < 0) s->error = 1;
    }
    if (ids_ok && !some) {
        if (btab_add(s->btab, U, ids, n) < 0) { PyErr_NoMemory(); s->error = 1; }
    }
done:
    Py_XDECREF(bkey);
    Py_XDECREF(btup);
}

static void base_rec(S *s, int start, int k, u128 U, u128 endo, u128 common, uint64_t hit) {
    int n = s->n;
    if (k == n) {
        base_set(s, U, endo, common);
        return;
    }
    for (int i = start; i < s->nb - (n - k) + 1; i++) {
        u128 m = s->base_mask[i];
        uint64_t h2 = 0;
        if (s->partition) {
            h2 = hit | s->touch[i];
            if (__builtin_popcountll(h2) > n + s->max_fins) continue;
        }
        u128 e = U & m;
        u128 com = common;
        if (e) {
            if (popc(endo | e) > s->max_endo) continue;
            u128 it = e;
            while (it) {
                com &= s->peers[lowbit(it)];
                it &= it - 1;
            }
            if (!(com & s->P & ~(endo | e))) continue;
        }
        s->chosen_b[k] = i;
        base_rec(s, i + 1, k + 1, U | m, endo | e, com, h2);
        if (s->stopped || s->error) return;
    }
}

/* One reader for the kernel's sequences: `convert(item, out, j)` stores item j (a mask or
 * an id); too long a sequence or a bad item is a Python exception. */
typedef int (*convert_fn)(PyObject *item, void *out, Py_ssize_t j);

static int read_seq(PyObject *seq, const char *what, void *out, Py_ssize_t cap,
                    Py_ssize_t *len, convert_fn convert) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(f);
    if (m > cap) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "_fish_kernel: too many %s (%zd > %zd)", what, m, cap);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(f);
    for (Py_ssize_t j = 0; j < m; j++) {
        if (convert(items[j], out, j) < 0) { Py_DECREF(f); return -1; }
    }
    Py_DECREF(f);
    *len = m;
    return 0;
}

static int convert_mask(PyObject *item, void *out, Py_ssize_t j) {
    return to_u128(item, &((u128 *)out)[j]);
}

static int convert_id(PyObject *item, void *out, Py_ssize_t j) {
    long v = PyLong_AsLong(item);
    if (v == -1 && PyErr_Occurred()) return -1;
    ((long *)out)[j] = v;
    return 0;
}

static int read_masks(PyObject *seq, const char *what, u128 *out, Py_ssize_t cap,
                      Py_ssize_t *len) {
    return read_seq(seq, what, out, cap, len, convert_mask);
}

static int read_ids(PyObject *seq, const char *what, long *out, Py_ssize_t cap,
                    Py_ssize_t *len) {
    return read_seq(seq, what, out, cap, len, convert_id);
}

PyDoc_STRVAR(search_doc,
"search(P, n, base_ids, base_masks, cover_ids, cover_masks, peers, max_fins, max_endo,\n"
"       need_elims, fin_prune, cover_bound, barren, tick) -> (list, stopped)\n\n"
"techniques.fish.search's enumeration for one digit: P its candidate cells; base_masks and\n"
"cover_masks the candidates of the (non-empty, full) base and (non-empty) cover houses, in\n"
"pool order, base_ids / cover_ids their house indices; peers the digit's peers per cell\n"
"(ints, one per cell, at most 128 cells). barren: the run's barren base sets (a set, or a\n"
"barren_new() table) or None;\n"
"tick: a callable taking a cost (Analysis.tick) or None, called at every TICK_EVERY-th base set. Returns the fish as tuples\n"
"(bases, covers, body, fins, endo, elims) in the Python search's order, and whether the\n"
"tick stopped the search.");

static PyObject *py_search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *Po, *base_ids, *base_masks, *cover_ids, *cover_masks, *peers, *barren, *tick;
    int n, max_fins, max_endo, need_elims, fin_prune, cover_bound;
    if (!PyArg_ParseTuple(args, "OiOOOOOiipppOO:search", &Po, &n, &base_ids, &base_masks,
                          &cover_ids, &cover_masks, &peers, &max_fins, &max_endo, &need_elims,
                          &fin_prune, &cover_bound, &barren, &tick))
        return NULL;
    S *s = (S *)calloc(1, sizeof(S));
    if (!s) return PyErr_NoMemory();
    PyObject *result = NULL;
    if (n < 1 || n >= MAXN) {
        PyErr_SetString(PyExc_ValueError, "_fish_kernel: fish size out of range");
        goto fail;
    }
    if (max_fins < 0 || max_endo < 0 || max_fins > 128 || max_endo > 128) {
        PyErr_SetString(PyExc_ValueError, "_fish_kernel: fin limits out of range");
        goto fail;
    }
    s->n = n;
    s->max_fins = max_fins;
    s->max_endo = max_endo;
    s->need_elims = need_elims;
    s->fin_prune = fin_prune;
    s->cover_bound = cover_bound;
    if (to_u128(Po, &s->P) < 0) goto fail;
    Py_ssize_t nb, nb2, nc, nc2, np;
    if (read_ids(base_ids, "bases", s->base_id, MAXBASES, &nb) < 0) goto fail;
    if (read_masks(base_masks, "bases", s->base_mask, MAXBASES, &nb2) < 0) goto fail;
    if (read_ids(cover_ids, "covers", s->cover_id, MAXCOVERS, &nc) < 0) goto fail;
    if (read_masks(cover_masks, "covers", s->cm, MAXCOVERS, &nc2) < 0) goto fail;
    if (read_masks(peers, "cells", s->peers, MAXCELLS, &np) < 0) goto fail;
    if (nb != nb2 || nc != nc2) {
        PyErr_SetString(PyExc_ValueError, "_fish_kernel: ids and masks differ in length");
        goto fail;
    }
    s->nb = (int)nb;
    s->nc = (int)nc;
    /* every mask within the cells given */
    u128 cells = np == 128 ? ~(u128)0 : (((u128)1 << np) - 1);
    if (s->P & ~cells) {
        PyErr_SetString(PyExc_ValueError, "_fish_kernel: candidates outside the grid");
        goto fail;
    }
    for (int j = 0; j < s->nb; j++) {
        if (s->base_mask[j] & ~s->P) {
            PyErr_SetString(PyExc_ValueError, "_fish_kernel: base mask outside P");
            goto fail;
        }
    }
    for (int j = 0; j < s->nc; j++) {
        if (s->cm[j] & ~s->P) {
            PyErr_SetString(PyExc_ValueError, "_fish_kernel: cover mask outside P");
            goto fail;
        }
    }
    s->barren = (barren == Py_None) ? NULL : barren;
    if (s->barren && PyCapsule_IsValid(s->barren, BARREN_NAME)) {
        s->btab = (BTab *)PyCapsule_GetPointer(s->barren, BARREN_NAME);
        if (!s->btab) goto fail;
        s->barren = NULL;
    } else if (s->barren && !PySet_Check(s->barren)) {
        PyErr_SetString(PyExc_TypeError,
                        "_fish_kernel: barren must be a set, a barren_new() table or None");
        goto fail;
    }
    s->tick = (tick == Py_None) ? NULL : tick;
    if (s->tick && !PyCallable_Check(s->tick)) {
        PyErr_SetString(PyExc_TypeError, "_fish_kernel: tick must be callable or None");
        goto fail;
    }
    s->out = PyList_New(0);
    if (!s->out) goto fail;
    if (s->nb < n || s->nc < n) goto finish;
    /* cell -> covers, multi, partition, at_most_two (fish.py's set-up) */
    int any = 0;
    s->partition = 1;
    s->at_most_two = 1;
    for (int i = 0; i < s->nc; i++) {
        u128 it = s->cm[i];
        while (it) {
            int c = lowbit(it);
            it &= it - 1;
            s->cc[c][s->ncc[c]++] = (uint8_t)i;
        }
    }
    for (int c = 0; c < MAXCELLS; c++) {
        if (!s->ncc[c]) continue;
        any = 1;
        if (s->ncc[c] != 1) s->partition = 0;
        if (s->ncc[c] > 2) s->at_most_two = 0;
        if (s->ncc[c] > 1) s->multi |= (u128)1 << c;
    }
    (void)any;
    for (int j = 0; j < s->nb; j++) {
        s->cover_of_base[j] = -1;
        for (int i = 0; i < s->nc; i++)
            if (s->cover_id[i] == s->base_id[j]) { s->cover_of_base[j] = i; break; }
        s->touch[j] = 0;
        if (s->partition) {
            u128 it = s->base_mask[j];
            while (it) {
                int c = lowbit(it);
                it &= it - 1;
                /* a base cell in no cover: cell_covers[c][0] raises KeyError in Python */
                if (!s->ncc[c]) {
                    PyErr_SetString(PyExc_ValueError, "_fish_kernel: a base cell in no cover");
                    goto fail;
                }
                s->touch[j] |= (uint64_t)1 << s->cc[c][0];
            }
        }
    }
    base_rec(s, 0, 0, 0, 0, ~(u128)0, 0);
    if (s->error) goto fail;
finish:
    result = Py_BuildValue("(OO)", s->out, s->stopped ? Py_True : Py_False);
fail:
    Py_XDECREF(s->out);
    free(s->found);
    free(s);
    return result;
}


/* ---- search_partition: basic fish (covers that partition the grid) -------------------- */

typedef struct {
    int8_t combo[MAXN];
    u128 fins, elims;
} PLeaf;

typedef struct {
    int n, nb, nc, max_fins, finned, count_fins, lim;
    u128 P;
    long base_id[MAXBASES];
    u128 base_mask[MAXBASES];
    uint64_t base_touch[MAXBASES];
    u128 pk[MAXBASES][MAXCOVERS];       /* per base and cover: its fin peers (all ones: none) */
    long cover_id[MAXCOVERS];
    u128 cover_cells[MAXCOVERS];
    int chosen[MAXN];
    /* the leaf's touched covers, sorted by their lowest base candidate */
    int k;
    int tc_i[MAXCOVERS];
    u128 tc_m[MAXCOVERS], tc_cp[MAXCOVERS];
    int opt[MAXCOVERS], nopt;
    u128 U;
    PLeaf *found;
    Py_ssize_t nfound, capfound;
    PyObject *out;
    int error;
} SP;

static int plow(SP *s, int j) {
    return lowbit(s->tc_m[j] & s->U);
}

static int sp_emit(SP *s, const int *idx, u128 fins, u128 elims) {
    /* Fish(bases, sorted cover ids, U, fins, 0, elims); idx: n indices into tc */
    PyObject *bt = PyTuple_New(s->n);
    if (!bt) return -1;
    for (int j = 0; j < s->n; j++) {
        PyObject *v = PyLong_FromLong(s->base_id[s->chosen[j]]);
        if (!v) { Py_DECREF(bt); return -1; }
        PyTuple_SET_ITEM(bt, j, v);
    }
    long cv[MAXN];
    for (int q = 0; q < s->n; q++) cv[q] = s->cover_id[s->tc_i[idx[q]]];
    qsort(cv, (size_t)s->n, sizeof(long), cmp_long);
    PyObject *ct = PyTuple_New(s->n);
    if (!ct) { Py_DECREF(bt); return -1; }
    for (int q = 0; q < s->n; q++) {
        PyObject *v = PyLong_FromLong(cv[q]);
        if (!v) { Py_DECREF(bt); Py_DECREF(ct); return -1; }
        PyTuple_SET_ITEM(ct, q, v);
    }
    PyObject *r = tuple6(bt, ct, s->U, fins, 0, elims);
    Py_DECREF(bt);
    if (!r) { Py_DECREF(ct); return -1; }
    int a = PyList_Append(s->out, r);
    Py_DECREF(r);
    return a;
}

static void sp_drop(SP *s, int start, int left, uint64_t out_mask, u128 acc, int nf) {
    if (s->error) return;
    if (!left) {
        u128 V = 0;
        for (int j = 0; j < s->k; j++)
            if (!(out_mask >> j & 1)) V |= s->tc_m[j];
        u128 elims = V & acc;
        if (elims) {
            if (s->nfound == s->capfound) {
                Py_ssize_t cap = s->capfound ? s->capfound * 2 : 32;
                PLeaf *f = (PLeaf *)realloc(s->found, (size_t)cap * sizeof(PLeaf));
                if (!f) { PyErr_NoMemory(); s->error = 1; return; }
                s->found = f;
                s->capfound = cap;
            }
            PLeaf *L = &s->found[s->nfound++];
            int q = 0;
            for (int j = 0; j < s->k; j++)
                if (!(out_mask >> j & 1)) L->combo[q++] = (int8_t)j;
            L->fins = s->U & ~V;
            L->elims = elims;
        }
        return;
    }
    for (int x = start; x < s->nopt - left + 1; x++) {
        int j = s->opt[x];
        u128 a2 = acc & s->tc_cp[j];
        if (!a2) continue;
        int nf2 = nf + popc(s->tc_m[j] & s->U);
        if (nf2 > s->max_fins) continue;
        sp_drop(s, x + 1, left - 1, out_mask | ((uint64_t)1 << j), a2, nf2);
        if (s->error) return;
    }
}

static int cmp_pleaf_n;
static int cmp_pleaf(const void *a, const void *b) {
    const PLeaf *x = (const PLeaf *)a, *y = (const PLeaf *)b;
    for (int q = 0; q < cmp_pleaf_n; q++)
        if (x->combo[q] != y->combo[q]) return x->combo[q] < y->combo[q] ? -1 : 1;
    return 0;
}

/* CP: the fin peers of the first n - 1 bases (NULL for one base), pk: the last base's */
static void sp_leaf(SP *s, u128 U, uint64_t T, const u128 *CP, const u128 *pk) {
    int n = s->n;
    u128 notU = s->P & ~U;
    s->U = U;
    int k = 0;
    while (T) {
        int i = __builtin_ctzll(T);
        T &= T - 1;
        u128 m = s->cover_cells[i];
        u128 fm = m & U;
        u128 cp;
        if (!s->finned) cp = 0;
        else if (!CP) cp = pk[i] & notU;
        else cp = CP[i] & pk[i] & notU;
        if (cp && s->count_fins && popc(fm) > s->max_fins) cp = 0;
        s->tc_i[k] = i;
        s->tc_m[k] = m;
        s->tc_cp[k] = cp;
        k++;
    }
    s->k = k;
    if (k < n) return;
    /* sort by the lowest base candidate (distinct: the covers are disjoint); insertion */
    for (int a = 1; a < k; a++) {
        int ti = s->tc_i[a];
        u128 tm = s->tc_m[a], tcp = s->tc_cp[a];
        int key = lowbit(tm & U);
        int b = a - 1;
        while (b >= 0 && plow(s, b) > key) {
            s->tc_i[b + 1] = s->tc_i[b];
            s->tc_m[b + 1] = s->tc_m[b];
            s->tc_cp[b + 1] = s->tc_cp[b];
            b--;
        }
        s->tc_i[b + 1] = ti;
        s->tc_m[b + 1] = tm;
        s->tc_cp[b + 1] = tcp;
    }
    int need = k - n;
    if (need == 0) {
        u128 V = 0;
        for (int j = 0; j < k; j++) V |= s->tc_m[j];
        u128 elims = V & notU;
        if (elims) {
            int idx[MAXN];
            for (int q = 0; q < n; q++) idx[q] = q;
            if (sp_emit(s, idx, 0, elims) < 0) s->error = 1;
        }
        return;
    }
    s->nopt = 0;
    for (int j = 0; j < k; j++)
        if (s->tc_cp[j]) s->opt[s->nopt++] = j;
    if (s->nopt < need) return;
    s->nfound = 0;
    sp_drop(s, 0, need, 0, notU, 0);
    if (s->error) return;
    cmp_pleaf_n = n;
    qsort(s->found, (size_t)s->nfound, sizeof(PLeaf), cmp_pleaf);
    for (Py_ssize_t f = 0; f < s->nfound; f++) {
        int idx[MAXN];
        for (int q = 0; q < n; q++) idx[q] = s->found[f].combo[q];
        if (sp_emit(s, idx, s->found[f].fins, s->found[f].elims) < 0) { s->error = 1; return; }
    }
}

static int sp_mandatory(SP *s, uint64_t T2, u128 U2, const u128 *CPa, const u128 *CPb) {
    u128 notU = s->P & ~U2;
    int mand = 0;
    while (T2) {
        int j = __builtin_ctzll(T2);
        T2 &= T2 - 1;
        u128 m = CPb ? (CPa[j] & CPb[j]) : CPa[j];
        if (!(m & notU) || (s->count_fins && popc(s->cover_cells[j] & U2) > s->max_fins))
            mand++;
    }
    return mand;
}

static void sp_rec(SP *s, int start, int k, u128 U, uint64_t T, const u128 *CP) {
    int n = s->n;
    int last = (k == n - 1);
    u128 CP2[MAXCOVERS];
    for (int i = start; i < s->nb - (n - k) + 1; i++) {
        if (s->error) return;
        uint64_t T2 = T | s->base_touch[i];
        if (__builtin_popcountll(T2) > s->lim) continue;
        u128 U2 = U | s->base_mask[i];
        const u128 *pk = s->pk[i];
        if (last) {
            if (s->finned && (CP ? sp_mandatory(s, T2, U2, CP, pk)
                                 : sp_mandatory(s, T2, U2, pk, NULL)) > n)
                continue;
            s->chosen[k] = i;
            sp_leaf(s, U2, T2, CP, pk);
            continue;
        }
        const u128 *next = NULL;
        if (s->finned) {
            if (CP) {
                for (int j = 0; j < s->nc; j++) CP2[j] = CP[j] & pk[j];
                next = CP2;
            } else {
                next = pk;
            }
            if (sp_mandatory(s, T2, U2, next, NULL) > n) continue;
        }
        s->chosen[k] = i;
        sp_rec(s, i + 1, k + 1, U2, T2, next);
    }
}

PyDoc_STRVAR(search_partition_doc,
"search_partition(P, n, base_ids, base_masks, cover_ids, cover_houses, cover_of, peers,\n"
"                 max_fins) -> list\n\n"
"techniques.fish.search_partition's enumeration for one digit: P its candidate cells;\n"
"base_masks the candidates of the (non-empty, full) base houses in pool order, base_ids\n"
"their house indices; cover_ids the cover pool, cover_houses its houses' cells (they\n"
"partition the grid: cover_of gives each cell's cover index); peers the digit's peers per\n"
"cell (at most 128 cells, 64 covers). Returns the fish as tuples (bases, covers, body,\n"
"fins, endo, elims) in the Python search's order.");

static PyObject *py_search_partition(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *Po, *base_ids, *base_masks, *cover_ids, *cover_houses, *cover_of, *peers;
    int n, max_fins;
    if (!PyArg_ParseTuple(args, "OiOOOOOOi:search_partition", &Po, &n, &base_ids, &base_masks,
                          &cover_ids, &cover_houses, &cover_of, &peers, &max_fins))
        return NULL;
    SP *s = (SP *)calloc(1, sizeof(SP));
    if (!s) return PyErr_NoMemory();
    PyObject *result = NULL;
    u128 peer[MAXCELLS], house[MAXCOVERS];
    long of[MAXCELLS];
    if (n < 1 || n >= MAXN) {
        PyErr_SetString(PyExc_ValueError, "_fish_kernel: fish size out of range");
        goto fail;
    }
    if (max_fins < 0 || max_fins > 128) {
        PyErr_SetString(PyExc_ValueError, "_fish_kernel: fin limit out of range");
        goto fail;
    }
    s->n = n;
    s->max_fins = max_fins;
    s->finned = max_fins > 0;
    s->count_fins = n > max_fins;
    s->lim = n + max_fins;
    if (to_u128(Po, &s->P) < 0) goto fail;
    Py_ssize_t nb, nb2, nc, nc2, np, nof;
    if (read_ids(base_ids, "bases", s->base_id, MAXBASES, &nb) < 0) goto fail;
    if (read_masks(base_masks, "bases", s->base_mask, MAXBASES, &nb2) < 0) goto fail;
    if (read_ids(cover_ids, "covers", s->cover_id, MAXCOVERS, &nc) < 0) goto fail;
    if (read_masks(cover_houses, "covers", house, MAXCOVERS, &nc2) < 0) goto fail;
    if (read_masks(peers, "cells", peer, MAXCELLS, &np) < 0) goto fail;
    if (read_ids(cover_of, "cells", of, MAXCELLS, &nof) < 0) goto fail;
    if (nb != nb2 || nc != nc2 || np != nof) {
        PyErr_SetString(PyExc_ValueError, "_fish_kernel: ids and masks differ in length");
        goto fail;
    }
    s->nb = (int)nb;
    s->nc = (int)nc;
    u128 cells = np == 128 ? ~(u128)0 : (((u128)1 << np) - 1);
    if (s->P & ~cells) {
        PyErr_SetString(PyExc_ValueError, "_fish_kernel: candidates outside the grid");
        goto fail;
    }
    for (Py_ssize_t c = 0; c < np; c++) {
        if (of[c] < 0 || of[c] >= nc || !(house[of[c]] >> c & 1)) {
            PyErr_SetString(PyExc_ValueError, "_fish_kernel: cover_of does not match the covers");
            goto fail;
        }
    }
    for (int i = 0; i < s->nc; i++) s->cover_cells[i] = house[i] & s->P;
    s->out = PyList_New(0);
    if (!s->out) goto fail;
    /* the bases: touched covers, fin peers per cover; without fins a base touching more
       than n covers is dropped */
    int kept = 0;
    for (int j = 0; j < s->nb; j++) {
        u128 m = s->base_mask[j];
        if (!m || (m & ~s->P)) {
            PyErr_SetString(PyExc_ValueError, "_fish_kernel: base mask empty or outside P");
            goto fail;
        }
        uint64_t t = 0;
        for (int i = 0; i < s->nc; i++) s->pk[kept][i] = ~(u128)0;
        u128 it = m;
        while (it) {
            int c = lowbit(it);
            it &= it - 1;
            int i = (int)of[c];
            t |= (uint64_t)1 << i;
            if (s->finned) s->pk[kept][i] &= peer[c] & ~house[i];
        }
        if (!s->finned && __builtin_popcountll(t) > n) continue;
        s->base_id[kept] = s->base_id[j];
        s->base_mask[kept] = m;
        s->base_touch[kept] = t;
        kept++;
    }
    s->nb = kept;
    if (s->nb >= n) {
        sp_rec(s, 0, 0, 0, 0, NULL);
        if (s->error) goto fail;
    }
    result = s->out;
    s->out = NULL;
fail:
    Py_XDECREF(s->out);
    free(s->found);
    free(s);
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS, search_doc},
    {"search_partition", py_search_partition, METH_VARARGS, search_partition_doc},
    {"barren_new", py_barren_new, METH_NOARGS, barren_new_doc},
    {"barren_keys", py_barren_keys, METH_O, barren_keys_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fish_kernel",
    "The fish search of techniques.fish in C (see techniques/_fish_kernel.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__fish_kernel(void) {
    if (u128_init() < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "TICK_EVERY", TICK_EVERY) < 0 ||
        PyModule_AddIntConstant(m, "TICK_COST", TICK_COST) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
