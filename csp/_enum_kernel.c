/* csp._enum_kernel: every model of a puzzle's CNF (csp/sat.py's encoding), in one C call.
 *
 * A DPLL search without clause learning: unit propagation with two watched literals
 * (binary clauses as implication lists), chronological backtracking (a decision l, then
 * its negation at the same level), branching on the all-positive clause of candidate
 * variables with the fewest literals left (a cell's "some digit", a house's "this digit
 * somewhere"). No blocking clauses: the whole tree is walked once, each leaf a distinct
 * assignment of the candidate variables ("primary" variables 1 .. size * n, the variable
 * of (cell, digit) being cell * n + digit). Auxiliary variables (selectors, automaton
 * states, product-encoding groups) are never decided: at a leaf every clause must hold
 * with the auxiliary variables left open set false, else the run gives up (code
 * GAVE_UP) and the caller takes its SAT path, so a solution counted here is a model of
 * the CNF and every model's candidates are counted once.
 *
 * The search is resumable: Enumerator.run(nodes, props, stop_at) goes on from where the
 * last call stopped, for at most `nodes` decisions and about `props` propagated literals,
 * so the caller checks its deadline, cancel and node budget between calls.
 *
 * With cap > 0 the run counts, per candidate, the solutions holding it (saturating at
 * 2^31) and, once two solutions are known, skips a subtree as soon as every candidate
 * still possible in it has been seen `cap` times (its capped counts cannot change).
 * With keep, the solutions (a digit per cell) are buffered for take().
 *
 * Failed-literal probing (probe=depth, probe_after=decisions): at the nodes above `depth`
 * each open candidate is placed and propagated, and one that conflicts is removed (sweeps
 * until one removes nothing, or, with probe_yield, one from the yield_from-th on (2 by
 * default, 1: the first too) finds too little;
 * a sweep skips what an earlier probe of it placed, and the cells whose digits were all
 * probed since the node last changed; with resort=1, a change at the node sorts the cells
 * left in the sweep again, fewest open digits first; with pause > 0, the root's probing
 * pauses within a sweep, from the second on, whose first `pause` probes or more set too
 * little, walks up to pause_nodes decisions (fewer when it has walked less than pause_pace
 * per mille of its tree at a third of them), and when that walk has not ended goes back to
 * the root, forgets it (counts, solutions, conflict weights, the watches' moves:
 * snap_watches) and probes on from the cell it paused at, so from there the run is the run
 * without the pause). With
 * lookahead=1 the sweep also reads a cell's probes together: once every open digit of a
 * cell that has a "some digit" clause is probed in the sweep, a candidate literal every
 * digit that did not conflict propagated to holds (the cell takes one of them). With
 * probe_after > 0 the walk first runs without it, and past that many decisions starts
 * again from the root with it (counts, decisions and the buffered solutions reset:
 * nothing is counted twice; with keep, take() the solutions only once the run is over
 * or gave up, what was taken before a restart cannot be taken back), and not when
 * counting candidates past two solutions. branch=1 branches on the cells' clauses only,
 * with decaying weights (choose_cells), for counting candidates up to a cap. A tuple among the clauses is an "at most one" group: a clause
 * (-a, -b) for each pair of its literals. With groups=1 (the default) a group of 2 to 56
 * distinct positive literals is propagated as one (gopen: its members not false, and
 * how many are true), not as its pairs, and the clause of the same literals next to it
 * in the stream (a cell's "some digit", a house's "this digit somewhere": mark_groups)
 * as its "at least one", not watched: a member set true sets the others false, a member
 * set false leaves the last open one true or conflicts when none is left. Unit
 * propagation reaches the same literals and the same conflicts as with the pairs and
 * the watched clause (it stops at a conflict met in another order, so the walks'
 * conflict weights, and their trees, differ); the workbench's unique and variant models:
 * the probing 8 % less CPU, the long walks a quarter to a third ("Renban Whispers",
 * v02, its count 102 -> 69 ms; docs/performance.md).
 * With at most GSNAP_MAX groups, gopen is saved whole at each decision level (gsnap) and
 * before each probe (gpsnap), and undoing back to there restores it in one copy rather
 * than literal by literal through each literal's groups (undo_snap, undo_probe).
 *
 * intersect=k (0, off, by default) adds, in the first k sweeps of a node's probing only,
 * two rules on the native groups
 * (locked candidates, generalised): an exactly-one group whose open members all lie in
 * another group makes that group's other members false (a box's digit confined to one
 * row: the row's other cells lose it, and the converse), and, at the start of each sweep,
 * an all-positive clause of candidates whose open literals all lie in one group does the
 * same (a renban's required digit inside a box). Both follow from the clauses, so the
 * solutions and counts are the same; the probes see more, the walk is unchanged
 * (propagate is compiled without them). "Crawfish" (u082) 1,072 -> 328 probes, kernel
 * 5.4 -> 3.0 ms (with k = 1 or every sweep alike); with every sweep, other puzzles'
 * sweeps run longer under the yield stop ("Whispering Rains" 840 -> 1,401 probes, 931
 * with k = 1): docs/performance.md, branch kern14.
 * ixnode=1 applies the same rules, in every sweep, to the node's own propagation in its
 * probing only (the root once the pairs are built, each sweep's start, a failed literal's
 * negation, the lookahead's literals), not to the probes past the first `intersect`
 * sweeps: what the node learns is cleared through the groups at once, and a probe costs
 * what it did ("Exclusive Singularity" u052 878 -> 608 probes, kernel 2.3 -> 1.7 ms;
 * "Downright Odd" u071 137 -> 13; docs/performance.md, branch mix14).
 * natives=[(kind, seen, first, last, cells), ...] (kind 0: a skyscraper clue, `seen`
 * buildings seen along `cells`, nearest first, their digits different) propagates those
 * rules in the kernel: after each unit propagation's fixpoint, every clue with a cell
 * changed since is made arc consistent on its automaton (nat_sky: the states (tallest so
 * far, seen so far) reachable forward, then those that reach an accepted end, and the
 * digits on such a path; a line of n cells ends at n), and every clause holding one of
 * the variables first..last (the automaton's states in the CNF) is left out. The
 * solutions are those of the full CNF (the clue's clauses, restricted to the candidates,
 * say what the clue says); "Crawfish" (u082): 1,039 probes and 92,841 propagated literals
 * -> 743 and 28,928 (docs/performance.md, branch probe15). Kind 1 (seen 0): a renban, its
 * cells' digits k consecutive ones (nat_renban: the windows that fit, the digits every
 * fitting window holds; its window selectors first..last). natk=m: unit propagation also
 * pauses for the natives' round after every m literals, so a rule's conflict is met
 * before the rest of the propagation runs on.
 * hskip=k (0, off, by default): the root's first sweep passes over the house-only cells
 * (each candidate literal in no binary clause, no long clause and no native, and in no more
 * groups than the fewest a candidate is in: its cell's and its houses') once k of them,
 * probed, set nothing and none set something; the later sweeps probe them. Not on a model
 * of groups alone (the kernel's own house encoding has no pass-over). The first sweep ends,
 * and the next reaches the rule cells' cascade, sooner ("Exclusive Singularity" u052: 608 ->
 * 372 probes; "Effluence" u065, whose house cells' probes pay, 602 -> 1,406).
 * again_none=1 (off by default): the second first walk (first_again) goes back to the
 * probing at its first check (again_check decisions) when it has walked none of its tree
 * (progress 0: no decision's first branch closed), unless again_found keeps it on; the same
 * probes, and the same decisions after it, on the unique and variants sets' kernel calls
 * but u086 and u087 (+35 decisions), 3-12 % fewer propagated literals on 25 puzzles
 * ("Exclusive Singularity" u052: 29,926 -> 26,863; docs/performance.md, branch bulk).
 * nodrop=1 (with natives=): the caller vouches that no clause holds a native's state
 * variable (csp/cnf_enum.py: every native's clauses deferred, Encoding.deferred), so the
 * stream is not scanned for them (u052: 2,759 clauses, about 140,000 instructions a call).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { DONE = 0, PAUSED = 1, STOPPED = 2, GAVE_UP = 3 };

typedef struct {                     /* 16 bytes: the lists per literal (bins, watches,
                                        groups) are read at each literal's turn */
    int *a;
    int n;
    unsigned cap : 31;
    unsigned own : 1;                /* a is its own allocation (else a slice of an arena) */
} IntVec;

typedef struct {                     /* a literal's lists */
    IntVec bins, gocc, watch;
} LitLists;
#define LL_STRIDE (sizeof(LitLists) / sizeof(IntVec))

static inline int vec_push(IntVec *v, int x) {
    if (v->n == v->cap) {
        int nc = v->cap ? v->cap * 2 : 4;
        int *na;
        if (v->own) {
            na = (int *)realloc(v->a, sizeof(int) * (size_t)nc);
        } else {                     /* out of its arena slice (not expected: see below) */
            na = (int *)malloc(sizeof(int) * (size_t)nc);
            if (na && v->n) memcpy(na, v->a, sizeof(int) * (size_t)v->n);
        }
        if (!na) return -1;
        v->a = na;
        v->cap = nc;
        v->own = 1;
    }
    v->a[v->n++] = x;
    return 0;
}

/* two entries at once (a watch: the clause and its blocker) */
/* lay out `count` vectors in one arena: vector i gets deg[i] slots, empty */
static int *vec_arena(IntVec *v0, size_t stride, const int *deg, Py_ssize_t count) {
    Py_ssize_t i, total = 0;
    int *arena;
    for (i = 0; i < count; i++) total += deg[i];
    arena = (int *)malloc(sizeof(int) * ((size_t)total + 1));
    if (!arena) return NULL;
    total = 0;
    for (i = 0; i < count; i++) {
        (v0 + (size_t)i * stride)->a = arena + total;
        (v0 + (size_t)i * stride)->n = 0;
        (v0 + (size_t)i * stride)->cap = deg[i];
        (v0 + (size_t)i * stride)->own = 0;
        total += deg[i];
    }
    return arena;
}

typedef struct {
    PyObject_HEAD
    int nvars, n, size, nprim;       /* variables 1..nvars; primary 1..nprim (= size*n) */
    int nlits;                       /* 2 * (nvars + 1) literal indices: 2v true, 2v+1 false */
    signed char *lval;               /* per literal index: 1 true, -1 false, 0 open */
    int *clit;                       /* the long clauses (size >= 3), flat: each is its
                                        length, then its literals */
    int *cstart;                     /* per long clause: where its literals start in clit */
    int nclauses;
    LitLists *ll;                    /* per literal index: its lists, side by side (read
                                        together at its turn in the queue) */
    /* ll[l].watch: long clauses watching it, each
                                        as its cstart (the length just before it: one
                                        load less a visit than an index into cstart) */
    /* ll[l].bins: literals implied when it is false */
    /* branching clauses: all-positive clauses of primary variables, size >= 2 */
    int nbc;
    int *bcstart, *bclen, *bclit;    /* their variables */
    int *bcnf, *bctc;                /* per branching clause: literals not false, true */
    int *bcw;                        /* per branching clause: conflicts met on its variables */
    IntVec *occ;                     /* per primary variable: branching clauses holding it */
    /* native "at most one" groups (groups=1): a tuple of 2 to 64 distinct positive
       literals is kept as one group, not as a binary clause per pair; when the stream has
       a clause of the same literals next to it (a cell's "some digit", a house's "this
       digit somewhere"), that clause is the group's "at least one" and is not watched */
    int ngroups;
    int *gstart, *glit;              /* per group: where its members (literal indices)
                                        start in glit */
    uint64_t *gopen;                 /* per group: its members not false (bit k: member k) */
    uint64_t *gsnap, *gpsnap;        /* gopen saved per decision level (gsnap_cap levels)
                                        and at a probe (undo_snap) */
    int gsnap_cap;
    int gpsnap_pos;                  /* gpsnap holds gopen at this trail length (-1: none):
                                        the probes of a node that has not changed since
                                        the last probe save nothing again (gopen is a
                                        function of the trail, which only an undo below
                                        this length changes) */
    /* ll[l].gocc: the groups holding it, each as
                                        group << 7 | exactly-one << 6 | member index */
    int *gocc_arena;
    /* intersect=k (probing only, the first k sweeps of a node's probing): per
       exactly-one group a, the groups b sharing 2 or more of its members and holding
       others: once every open member of a is in b, b's others are false (a box's digit
       on one line: the line's other cells lose it); built on the first probe (ipbuilt) */
    int intersect, ipbuilt;
    int ixnode;                      /* 1: the node's own propagation in its probing (the
                                        root's build, each sweep's start, a failed literal,
                                        the lookahead's literals) uses them in every sweep,
                                        the probes only in the first `intersect` */
    int cursweep;                    /* probe(): the sweep under way (0: before the first) */
    int *ipstart, *ipb;              /* per group: its pairs' start; per pair: b */
    unsigned char *ipmax;            /* per group: its largest share with a b */
    int *mpstart, *mplist;           /* per member (glit position): the pairs whose share
                                        holds it */
    long long crossed;               /* candidate literals the intersections set */
    uint64_t *ipin, *ipout;          /* per pair: a's members in b (a's bits), b's members
                                        not in a (b's bits) */
    /* the arenas of watch, bins and occ: each vector is a slice sized to hold every entry
       it can ever have (a long clause watches a literal only if it holds it), so the lists
       of a literal lie side by side and set-up is three allocations, not one a list */
    int *watch_arena, *bins_arena, *occ_arena;
    /* the leaf check: clauses with a positive auxiliary literal (flat, 0-terminated) */
    int *aux;
    int naux;
    /* the search */
    int *trail, trail_n, qhead;
    int *lim, *dec;                  /* per level: trail start, decision literal index */
    signed char *flipped;
    signed char *pdone;              /* per level: the node was probed */
    int level;
    int prim_set;                    /* primary variables assigned */
    int *cellvar;                    /* per cell: its true primary variable (0: none) */
    int need_bt, finished, gave_up, root_done;
    long long nodes, props, found;
    long long gain_at;               /* the decisions made when a solution last raised a
                                        capped count (cap > 0; set at a restart too) */
    int probe_depth;                 /* failed-literal probing at levels below it ... */
    long long probe_after;           /* ... from this many decisions on (0: never) */
    int branch;                      /* 0: choose(); 1: choose_cells() (see there) */
    int *cellbc, ncellbc;            /* branch 1: the branching clauses that are a cell's
                                        (all their variables one cell's), in order */
    long long nconf;                 /* branch 1: conflicts of the walk (decay_weights) */
    int probing;                     /* 1 while probing: conflicts do not weigh, the
                                        branching clauses' counts stay as they are */
    long long probed;                /* candidates probed */
    int *pmark, sweep;               /* per primary variable: the sweep that saw it follow */
    int *pmepoch;                    /* ... and the node's epoch then */
    int epoch;                       /* probe(): the node's literals' version (a change at
                                        the node, or a new call, starts a new one) */
    int *cellok;                     /* probe(): per cell, the epoch at which a pass saw
                                        none of its open digits fail (and nothing change) */
    int lookahead;                   /* probe(): a cell's probes read together (above) */
    int probe_yield;                 /* probe(): no sweep after one that set fewer
                                        candidate variables than this per mille of its
                                        probes (0: sweeps until one sets nothing) */
    int yield_from;                  /* ... from this sweep on (1: the first) */
    int pause;                       /* probe(): the root's probing pauses within a sweep
                                        (from the second) whose first `pause` probes or
                                        more set too little (probe_yield); 0: never */
    long long pause_nodes;           /* ... for a walk of this many decisions, then goes
                                        on from where it paused (restart_probing) */
    int paused;                      /* 0: not yet, 1: paused, 2: resumed (or a probing
                                        after a walk: no pause) */
    int resort;                      /* probe(): after a change, the cells left in the
                                        sweep are sorted again (fewest open digits) */
    int pause_pace;                  /* per mille: the walk after the pause goes back to
                                        the probing at a third of pause_nodes when it has
                                        walked less of its tree (progress) than this */
    long long pz_check;              /* the decision of that check (0: done) */
    int pz_pace;                     /* the pace (per mille) asked at that check */
    int pz_found_on;                 /* pause_found: the walk of that pause goes on at a
                                        check where it has found solutions since the last
                                        (checks at each doubling of the decisions), and
                                        past pause_nodes while each check finds more
                                        (pz_grew) */
    int pz_grew;
    long long pz_found;              /* the solutions found at its last check */
    /* the first walk (first_walk > 0, the root's probing before any walk): the first
       sweep pauses before its first probe as the pause above, for a walk of up to
       first_walk decisions that goes on while it keeps its pace (search(): at first_check
       decisions the share of its tree left, times the decisions, within first_pace per
       mille; at each doubling the share left within first_shrink per mille of the last
       check's); with first_again, once more at the first cell's start after that many
       probes of the first sweep (checks from again_check decisions, again_pace) */
    long long fw_nodes, fw_check, fw_check2;
    int fw_pace, fw_pace2, fw_again, fw_shrink;
    double fw_left;                  /* the share of its tree left at the last check (-1:
                                        none yet) */
    int fw_found_on;                 /* again_found: the second first walk, paused in a
                                        sweep whose probes so far set fewer candidate
                                        variables than probe_yield per mille of them, goes
                                        on at a check where it has found solutions since
                                        the last (fw_thin), and past its budget while each
                                        check finds more (fw_grew) */
    int fw_thin, fw_grew;
    int fw_none;                     /* again_none: the second first walk goes back at its
                                        first check when it has walked none of its tree (no
                                        decision's first branch closed: progress 0) */
    long long fw_found;              /* the solutions found at the last check */
    int fw_state;                    /* 0: the first pending, 1: walking it, 3: the second
                                        pending, 4: walking it, 2: done (or not wanted) */
    int pz_sweeps, pz_set0, pz_changed, pz_m, pz_q;   /* the paused sweep's counters, its
                                        cells and where it paused */
    long long pz_probed0;
    int nclit;                       /* the length of clit */
    int *sn_clit, *sn_warena, *sn_wn;   /* the watches at the pause (snap_watches) */
    size_t sn_wtotal;
    unsigned char *cellcl;           /* per cell: a branching clause of its own digits */
    int *lastamp, *lacnt;            /* per literal index: the cell pass that saw it, in
                                        how many of that cell's probes */
    int *labuf, lan, lagen;          /* the candidate literals of the cell's first clean
                                        probe */
    long long implied;               /* candidate literals the lookahead set */
    long long pskipped;              /* cells a sweep passed over (cellok) */
    unsigned char *hcell;            /* per cell: 1 when its candidates sit in no binary
                                        clause, no long clause and no native (only in the
                                        houses' and its own groups) */
    int hskip;                       /* probe(): the root's first sweep passes over the
                                        house-only cells after this many of them set
                                        nothing (0: never) */
    long long hskipped;              /* house-only cells so passed over */
    int hdone, hfound;               /* the first sweep's house-only cells that set
                                        nothing; 1: one set something */
    int *porder;                     /* probe(): the cells in probing order, then per cell
                                        its open candidates, then n + 1 bucket starts */
    /* natives (natives=): rules the kernel propagates itself instead of by their
       clauses (their automaton's clauses, every clause holding one of its state
       variables, are left out of the stream): a skyscraper clue along its cells, kept
       arc consistent on its automaton (nat_sky) after each unit propagation's fixpoint */
    int nnat;
    int *natd, *natstart;            /* per native: kind, seen, k, then its k cells */
    int *nocstart, *noclist;         /* per cell: the natives holding it */
    int *natstamp, natgen, *natq;    /* the natives queued in one round */
    int nhead;                       /* the trail read for them up to here */
    int natall;                      /* 1: every native is queued at the next fixpoint */
    long long natruns;               /* natives run */
    int natk;                        /* natives: unit propagation pauses for their round
                                        after this many literals (INT_MAX: at its
                                        fixpoint only) */
    uint64_t *cmask;                 /* natives: per cell, its digits not false (bit d;
                                        kept for the natives' cells only) */
    int *vnat;                       /* per primary variable: its cell when a native
                                        holds the cell, else -1 */
    int nr, *rx, *ra;                /* the last round's natives that set something, and
                                        where on the trail (ra[2i] .. ra[2i+1]): a native
                                        is not queued again for its own literals (it is
                                        arc consistent after its run) */
    /* candidate counts */
    int cap;
    uint32_t *counts;                /* per primary variable */
    unsigned char *seen;             /* counted cap times */
    int unseen;                      /* primary variables neither false nor seen */
    /* solutions */
    int keep;
    IntVec sols;                     /* buffered solutions, size digits each */
    int *first;                      /* the first solution, size digits (NULL: none yet) */
} Enumerator;

/* a native group's gopen: its open members (bit k: member k, at most 56), and the
   number of its true members times G_TRUE */
#define G_TRUE (1ULL << 56)
#define G_OPEN (G_TRUE - 1)

static inline __attribute__((always_inline)) void assign(Enumerator *e, int lit) {
    int v = lit >> 1;
    e->lval[lit] = 1;
    e->lval[lit ^ 1] = -1;
    e->trail[e->trail_n++] = lit;
    if (e->ngroups) {                /* the groups of the literal now false, now true
                                        (read into locals: the stores to gopen would
                                        reload them, the build not assuming strict
                                        aliasing) */
        uint64_t *gop = e->gopen;
        const int *ga = e->ll[(lit | 1) ^ 1].gocc.a;   /* the variable's (a group's
                                        members are positive literals) */
        int i, gn = e->ll[(lit | 1) ^ 1].gocc.n;
        if (lit & 1)
            for (i = 0; i < gn; i++) { int x = ga[i]; gop[x >> 7] &= ~(1ULL << (x & 63)); }
        else
            for (i = 0; i < gn; i++) { int x = ga[i]; gop[x >> 7] += G_TRUE - (1ULL << (x & 63)); }
    }
    if (v <= e->nprim) {
        IntVec *o = &e->occ[v];
        int i;
        e->prim_set++;
        if (lit & 1) {               /* false */
            if (e->vnat && e->vnat[v] >= 0) {
                int c = e->vnat[v];
                e->cmask[c] &= ~(1ULL << (v - c * e->n));
            }
            if (!e->seen[v]) e->unseen--;
            if (!e->probing) {       /* a probe is undone before anything branches */
                int *bc = e->bcnf, on = o->n;
                const int *oa = o->a;
                for (i = 0; i < on; i++) bc[oa[i]]--;
            }
        } else {
            e->cellvar[(v - 1) / e->n] = v;
            if (!e->probing) {
                int *bc = e->bctc, on = o->n;
                const int *oa = o->a;
                for (i = 0; i < on; i++) bc[oa[i]]++;
            }
        }
    }
}

static inline __attribute__((always_inline)) void unassign_body(Enumerator *e, int lit,
                                                              const int groups) {
    int v = lit >> 1;
    e->lval[lit] = 0;
    e->lval[lit ^ 1] = 0;
    if (groups && e->ngroups) {
        uint64_t *gop = e->gopen;
        const int *ga = e->ll[(lit | 1) ^ 1].gocc.a;
        int i, gn = e->ll[(lit | 1) ^ 1].gocc.n;
        if (lit & 1)
            for (i = 0; i < gn; i++) { int x = ga[i]; gop[x >> 7] |= 1ULL << (x & 63); }
        else
            for (i = 0; i < gn; i++) { int x = ga[i]; gop[x >> 7] -= G_TRUE - (1ULL << (x & 63)); }
    }
    if (v <= e->nprim) {
        IntVec *o = &e->occ[v];
        int i;
        e->prim_set--;
        if (lit & 1) {
            if (e->vnat && e->vnat[v] >= 0) {
                int c = e->vnat[v];
                e->cmask[c] |= 1ULL << (v - c * e->n);
            }
            if (!e->seen[v]) e->unseen++;
            if (!e->probing) {
                int *bc = e->bcnf, on = o->n;
                const int *oa = o->a;
                for (i = 0; i < on; i++) bc[oa[i]]++;
            }
        } else {
            e->cellvar[(v - 1) / e->n] = 0;
            if (!e->probing) {
                int *bc = e->bctc, on = o->n;
                const int *oa = o->a;
                for (i = 0; i < on; i++) bc[oa[i]]--;
            }
        }
    }
}

/* a conflict on the variable of `lit`: the branching clauses holding it weigh more */
static inline void bump(Enumerator *e, int lit) {
    int v = lit >> 1, i;
    if (v <= e->nprim && !e->probing) {
        IntVec *o = &e->occ[v];
        for (i = 0; i < o->n; i++)
            if (e->bcw[o->a[i]] < (1 << 20)) e->bcw[o->a[i]]++;
    }
}

static void undo_to(Enumerator *e, int pos) {
    if (pos < e->gpsnap_pos) e->gpsnap_pos = -1;
    while (e->trail_n > pos) unassign_body(e, e->trail[--e->trail_n], 1);
    if (e->qhead > pos) e->qhead = pos;
    if (e->nhead > pos) e->nhead = pos;
}

/* the groups' open members saved whole (gsnap: per decision level, gpsnap: a probe's)
   when there are at most GSNAP_MAX groups: an undo then restores them in one copy
   instead of each undone literal's groups one by one (the same values: gopen is a
   function of the assignment) */
#define GSNAP_MAX 2048
#define GSNAP_ON(e) ((e)->ngroups > 0 && (e)->ngroups <= GSNAP_MAX)

/* back to trail position pos, the groups' open members restored from snap (saved at
   pos; NULL: literal by literal) */
static void undo_snap(Enumerator *e, int pos, const uint64_t *snap) {
    if (!snap) { undo_to(e, pos); return; }
    if (pos < e->gpsnap_pos) e->gpsnap_pos = -1;
    while (e->trail_n > pos) unassign_body(e, e->trail[--e->trail_n], 0);
    memcpy(e->gopen, snap, sizeof(uint64_t) * (size_t)e->ngroups);
    if (e->qhead > pos) e->qhead = pos;
    if (e->nhead > pos) e->nhead = pos;
}

/* a probe's undo back to pos (probing: the branching clauses' counts were left alone),
   the groups' open members from snap, prim_set and unseen as they were at pos (saved:
   nothing between records a solution, so seen stays); snap NULL: undo_to */
static void undo_probe(Enumerator *e, int pos, const uint64_t *snap, int prim_set, int unseen) {
    signed char *lval = e->lval;
    const int *tr = e->trail, *vnat = e->vnat;
    uint64_t *cmask = e->cmask;
    int *cellvar = e->cellvar, nprim = e->nprim, n = e->n, t = e->trail_n;
    if (!snap) { undo_to(e, pos); return; }
    if (pos < e->gpsnap_pos) e->gpsnap_pos = -1;
    while (t > pos) {
        int lit = tr[--t], v = lit >> 1;
        lval[lit] = 0;
        lval[lit ^ 1] = 0;
        if (v <= nprim) {
            if (!(lit & 1)) cellvar[(v - 1) / n] = 0;
            else if (vnat && vnat[v] >= 0) cmask[vnat[v]] |= 1ULL << (v - vnat[v] * n);
        }
    }
    e->trail_n = pos;
    memcpy(e->gopen, snap, sizeof(uint64_t) * (size_t)e->ngroups);
    e->prim_set = prim_set;
    e->unseen = unseen;
    if (e->qhead > pos) e->qhead = pos;
    if (e->nhead > pos) e->nhead = pos;
}

/* the saved open members of level L's start (NULL: none kept) */
static inline const uint64_t *level_snap(const Enumerator *e, int L) {
    return e->gsnap && L < e->gsnap_cap ? e->gsnap + (size_t)L * (size_t)e->ngroups : NULL;
}

/* save the open members at level L's start (level_snap then has them); -1: no memory */
static int save_level(Enumerator *e, int L) {
    if (!GSNAP_ON(e)) return 0;
    if (L >= e->gsnap_cap) {
        int cap = e->gsnap_cap ? 2 * e->gsnap_cap : 32;
        uint64_t *ns;
        while (cap <= L) cap *= 2;
        ns = (uint64_t *)realloc(e->gsnap, sizeof(uint64_t) * (size_t)cap * (size_t)e->ngroups);
        if (!ns) return -1;
        e->gsnap = ns;
        e->gsnap_cap = cap;
    }
    memcpy(e->gsnap + (size_t)L * (size_t)e->ngroups, e->gopen,
           sizeof(uint64_t) * (size_t)e->ngroups);
    return 0;
}

/* intersect=1: an exactly-one group with the open members o (two or more, none true):
   each pair in mplist[q0..q1) (those whose share holds o's first member) whose share
   holds all of o sets its b's other members false */
/* pair p of group a, whose open members are o: when they all lie in p's other group, that
   group's members outside a are set false */
static inline void intersect_pair(Enumerator *e, uint64_t o, int p) {
    uint64_t rest;
    const int *bl;
    if (o & ~e->ipin[p]) return;
    rest = e->gopen[e->ipb[p]] & G_OPEN & e->ipout[p];
    bl = e->glit + e->gstart[e->ipb[p]];
    while (rest) {
        int m = bl[__builtin_ctzll(rest)];
        rest &= rest - 1;
        e->crossed++;
        assign(e, m ^ 1);
    }
}

static __attribute__((noinline)) void intersect_member(Enumerator *e, uint64_t o, int q0, int q1) {
    int q;
    for (q = q0; q < q1; q++)
        intersect_pair(e, o, e->mplist[q]);
}

/* bits set in x, without a call (no popcnt instruction assumed) */
static inline int pop64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* 1 on a conflict; ix: with the groups' intersections (intersect=1: propagate_ix, the
   probes' propagation; the walk's is propagate, compiled without them) */
static inline __attribute__((always_inline)) int up_body(Enumerator *e, const int ix) {
    signed char *lval = e->lval;
    int budget = e->natk;
    while (e->qhead < e->trail_n) {
        if (--budget < 0) return 2;  /* natives: their round comes first */
        int f = e->trail[e->qhead++] ^ 1;     /* the literal that became false */
        IntVec *b = &e->ll[f].bins;
        IntVec *ws;
        int i, j, k;
        e->props++;
        if (e->ngroups && (f & 1)) { /* f ^ 1 true: the other members of its groups false
                                        (a group's members are positive literals) */
            const int *gta = e->ll[f ^ 1].gocc.a;
            int gtn = e->ll[f ^ 1].gocc.n;
            for (i = 0; i < gtn; i++) {
                int x = gta[i];
                const int *ml = e->glit + e->gstart[x >> 7];
                uint64_t o = e->gopen[x >> 7], rest = o & G_OPEN;
                if (o >= 2 * G_TRUE) {  /* another member is true */
                    for (k = 0; lval[ml[k]] != 1 || ml[k] == (f ^ 1); k++) {}
                    bump(e, f); bump(e, ml[k]);
                    return 1;
                }
                while (rest) {
                    int m = ml[__builtin_ctzll(rest)];
                    rest &= rest - 1;
                    assign(e, m ^ 1);
                }
            }
        }
        for (i = 0; i < b->n; i++) {
            int o = b->a[i];
            if (lval[o] == 1) continue;
            if (lval[o] == -1) { bump(e, f); bump(e, o); return 1; }
            assign(e, o);
        }
        if (e->ngroups && !(f & 1)) {   /* f false: an exactly-one group with one member left
                                        takes it, with none left conflicts */
            const int *gfa = e->ll[f].gocc.a;
            const uint64_t *gop = e->gopen;
            int gfn = e->ll[f].gocc.n;
            for (i = 0; i < gfn; i++) {
                int x = gfa[i];
                uint64_t o;
                if (!(x & 64)) continue;
                o = gop[x >> 7];
                if (o & ((o - 1) | ~G_OPEN)) {  /* a member true, or two open */
                    if (ix && o < G_TRUE && pop64(o) <= e->ipmax[x >> 7]) {
                        int pos = e->gstart[x >> 7] + __builtin_ctzll(o);
                        if (e->mpstart[pos] < e->mpstart[pos + 1])
                            intersect_member(e, o, e->mpstart[pos], e->mpstart[pos + 1]);
                    }
                    continue;
                }
                if (!o) {
                    const int *ml = e->glit + e->gstart[x >> 7];
                    int len = e->gstart[(x >> 7) + 1] - e->gstart[x >> 7];
                    for (k = 0; k < len; k++) bump(e, ml[k]);
                    return 1;
                }
                assign(e, e->glit[e->gstart[x >> 7] + __builtin_ctzll(o)]);
            }
        }
        ws = &e->ll[f].watch;
        for (i = 0, j = 0; i < ws->n;) {
            int ci = ws->a[i++];
            int *c = e->clit + ci;
            int len = c[-1];
            if (c[0] == f) { c[0] = c[1]; c[1] = f; }
            if (lval[c[0]] == 1) { ws->a[j++] = ci; continue; }
            for (k = 2; k < len; k++) {
                if (lval[c[k]] != -1) {
                    int t = c[1]; c[1] = c[k]; c[k] = t;
                    if (vec_push(&e->ll[c[1]].watch, ci) < 0) { ws->a[j++] = ci; goto nomem; }
                    goto next;
                }
            }
            ws->a[j++] = ci;
            if (lval[c[0]] == -1) {
                for (k = 0; k < len; k++) bump(e, c[k]);
                while (i < ws->n) ws->a[j++] = ws->a[i++];
                ws->n = j;
                return 1;
            }
            assign(e, c[0]);
        next:;
        }
        ws->n = j;
        continue;
    nomem:
        while (i < ws->n) ws->a[j++] = ws->a[i++];
        ws->n = j;
        return -1;
    }
    return 0;
}

/* a native's view of cell c: its digits not false (bit d), only its digit once one is
   true (the others may be false only when unit propagation has read it: a native earlier
   in the round may have set it) */
static inline uint64_t cell_dom(const Enumerator *e, int c) {
    int v = e->cellvar[c];
    return v ? e->cmask[c] & (1ULL << (v - c * e->n)) : e->cmask[c];
}

/* a skyscraper clue (native x): seen buildings along its k cells (nearest first), the
   automaton's states (tallest so far, seen so far) kept as, per count j, a bit mask of
   the tallest digits reachable after i cells (bit 0: none yet). The cells differ (the
   rule's own requirement), so a hidden building is lower than the tallest; a line of n
   cells ends at n. Forward, the states reachable; backward, those that still reach an
   accepted end, and the digits on such a path. 1: no digit fits (a conflict), else 0
   (the digits on no path set false) */
static int nat_sky(Enumerator *e, int x) {
    const int *d = e->natd + e->natstart[x];
    int seen = d[1], k = d[2], n = e->n, i, j, dg;
    const int *cells = d + 3;
    uint64_t F[65][16], B[16], NB[16], D[64], V[64];
    const signed char *lval = e->lval;
    if (seen > 15 || k > 64) return 0;
    (void)lval; (void)dg;
    for (i = 0; i < k; i++) {        /* the cells' digits not false (bit d: digit d) */
        uint64_t m = cell_dom(e, cells[i]);
        if (!m) return 1;
        D[i] = m;
    }
    for (j = 0; j <= seen; j++) F[0][j] = 0;
    F[0][0] = 1;
    for (i = 0; i < k; i++) {
        uint64_t dm = D[i], above_min_d = ~((dm & -dm) * 2 - 1);   /* tops above min d */
        for (j = 0; j <= seen; j++)               /* hidden: lower than the top */
            F[i + 1][j] = F[i][j] & above_min_d;
        for (j = 1; j <= seen; j++) {             /* visible: above the top */
            uint64_t f = F[i][j - 1];
            if (f) F[i + 1][j] |= dm & ~((f & -f) * 2 - 1);
        }
    }
    /* the accepted ends: `seen` seen, a full line's tallest n */
    for (j = 0; j <= seen; j++) B[j] = 0;
    B[seen] = F[k][seen] & (k == n ? 1ULL << n : ~1ULL);
    if (!B[seen]) return 1;
    for (i = k - 1; i >= 0; i--) {
        uint64_t dm = D[i], above_min_d = ~((dm & -dm) * 2 - 1), v = 0;
        for (j = 0; j <= seen; j++) NB[j] = 0;
        for (j = 0; j <= seen; j++) {
            uint64_t b = B[j], h, f;
            if (!b) continue;
            h = F[i][j] & b & above_min_d;           /* hidden from a top in b */
            if (h) {
                NB[j] |= h;
                v |= dm & ((1ULL << (63 - __builtin_clzll(h))) - 1);
            }
            if (j >= 1 && (f = F[i][j - 1])) {        /* visible: d in b above a top */
                uint64_t w = dm & b & ~((f & -f) * 2 - 1);
                if (w) {
                    v |= w;
                    NB[j - 1] |= f & ((1ULL << (63 - __builtin_clzll(w))) - 1);
                }
            }
        }
        if (!v) return 1;
        V[i] = v;
        for (j = 0; j <= seen; j++) B[j] = NB[j];
    }
    for (i = 0; i < k; i++) {
        uint64_t gone = D[i] & ~V[i];
        int base = cells[i] * n;
        while (gone) {
            int g = __builtin_ctzll(gone);
            gone &= gone - 1;
            assign(e, 2 * (base + g) + 1);
        }
    }
    return 0;
}

/* a renban (native x): its k cells hold k consecutive digits (different: their house is
   in the CNF). A window of k consecutive digits fits when every cell has a digit in it
   and every digit of it is in some cell; the cells keep the digits of the windows that
   fit (again until none is lost), and a digit every window that fits holds, left in one
   cell only, is that cell's. 1: no window fits, or such a digit is in no cell (a
   conflict), else 0 */
static int nat_renban(Enumerator *e, int x) {
    const int *d = e->natd + e->natstart[x];
    int k = d[2], n = e->n, i, s;
    const int *cells = d + 3;
    uint64_t D[64], run = (k >= 64 ? ~0ULL : (1ULL << k) - 1), S, R, U;
    for (i = 0; i < k; i++) {
        D[i] = cell_dom(e, cells[i]);
        if (!D[i]) return 1;
    }
    for (;;) {
        int lost = 0;
        U = 0;
        for (i = 0; i < k; i++) U |= D[i];
        S = 0;
        R = ~0ULL;
        if (k >= 2 && k <= 8) {
            /* every window at once, a bit per start s (digits s .. s + k - 1): the starts
               whose window U covers (bits s .. s + k - 1 all in U: the AND of U shifted
               by 0 .. k - 1) and each cell meets (some bit of D[i] in s .. s + k - 1: the
               OR of D[i] shifted by 0 .. k - 1), the shifts by doubling (a fixed sequence
               per length); the same windows as the loop below (bit 0 is no digit, and U
               has none above n) */
            int a1 = 1, a2 = k >= 4 ? 2 : k - 2, a3 = k - 2 - a2;   /* 1 + a2 + a3 = k - 1 */
            uint64_t fit = U, w;
            fit &= fit >> a1;
            fit &= fit >> a2;
            fit &= fit >> a3;
            for (i = 0; i < k && fit; i++) {
                w = D[i];
                w |= w >> a1;
                w |= w >> a2;
                w |= w >> a3;
                fit &= w;
            }
            fit &= ~1ULL;
            if (fit) {
                int lo = __builtin_ctzll(fit), hi = 63 - __builtin_clzll(fit);
                R = (run << lo) & (run << hi);     /* the first and last windows' common digits */
                S = fit;
                S |= S << a1;
                S |= S << a2;
                S |= S << a3;
            }
        } else
            for (s = 1; s + k - 1 <= n; s++) {
                uint64_t w = run << s;
                if ((U & w) != w) continue;
                for (i = 0; i < k && (D[i] & w); i++) {}
                if (i < k) continue;
                S |= w;
                R &= w;
            }
        if (!S) return 1;
        for (i = 0; i < k; i++) {
            uint64_t gone = D[i] & ~S;
            if (!gone) continue;
            D[i] &= S;
            if (!D[i]) return 1;
            lost = 1;
            while (gone) {
                int g = __builtin_ctzll(gone);
                gone &= gone - 1;
                assign(e, 2 * (cells[i] * n + g) + 1);
            }
        }
        if (!lost) break;
    }
    while (R) {                      /* the digits every window holds: placed */
        int g = __builtin_ctzll(R), at = -1;
        R &= R - 1;
        for (i = 0; i < k; i++)
            if (D[i] >> g & 1) { if (at >= 0) break; at = i; }
        if (at < 0) return 1;
        if (i == k && e->lval[2 * (cells[at] * n + g)] == 0)
            assign(e, 2 * (cells[at] * n + g));
    }
    return 0;
}

/* the natives whose cells changed since the last round (all of them at the first), each
   run once: 1 on a conflict, 2 when they set something, 0 when not */
static __attribute__((noinline)) int natives_run(Enumerator *e) {
    int nq = 0, i, at, ri = 0, nr = e->nr;
    if (++e->natgen == 0x7fffffff) {
        memset(e->natstamp, 0, sizeof(int) * (size_t)e->nnat);
        e->natgen = 1;
    }
    if (e->natall) {
        e->natall = 0;
        for (i = 0; i < e->nnat; i++) { e->natstamp[i] = e->natgen; e->natq[nq++] = i; }
    }
    {                                /* the trail since the last round (in locals: the
                                        queue's stores would reload them) */
        const int *tr = e->trail, *vnat = e->vnat, *ra = e->ra;
        int h = e->nhead, tn = e->trail_n, nprim = e->nprim, gen = e->natgen;
        for (; h < tn; h++) {
            int v = tr[h] >> 1, c, q, own = -1;
            if (v > nprim || (c = vnat[v]) < 0) continue;
            while (ri < nr && ra[2 * ri + 1] <= h) ri++;
            if (ri < nr && ra[2 * ri] <= h) own = e->rx[ri];
            for (q = e->nocstart[c]; q < e->nocstart[c + 1]; q++) {
                int x = e->noclist[q];
                if (e->natstamp[x] != gen && x != own) {
                    e->natstamp[x] = gen;
                    e->natq[nq++] = x;
                }
            }
        }
        e->nhead = h;
    }
    e->natruns += nq;
    e->nr = 0;
    for (i = 0; i < nq; i++) {
        int x = e->natq[i];
        at = e->trail_n;
        if (e->natd[e->natstart[x]] ? nat_renban(e, x) : nat_sky(e, x)) {
            /* a conflict on the rule's placed cells: their digits weigh more */
            const int *d = e->natd + e->natstart[x];
            int c;
            for (c = 0; c < d[2]; c++)
                if (e->cellvar[d[3 + c]]) bump(e, 2 * e->cellvar[d[3 + c]]);
            return 1;
        }
        if (e->trail_n > at) {
            e->rx[e->nr] = x;
            e->ra[2 * e->nr] = at;
            e->ra[2 * e->nr + 1] = e->trail_n;
            e->nr++;
        }
    }
    return e->nr ? 2 : 0;
}

static inline __attribute__((always_inline)) int propagate_body(Enumerator *e, const int ix) {
    if (e->nnat) e->nr = 0;          /* no round of natives yet in this call */
    for (;;) {
        int r = up_body(e, ix);
        if (r == 2) {                /* a pause of unit propagation: the natives' round */
            if (natives_run(e) == 1) return 1;
            continue;
        }
        if (r || !e->nnat || (e->nhead == e->trail_n && !e->natall)) return r;
        r = natives_run(e);
        if (r != 2) return r;
    }
}

static int propagate(Enumerator *e) { return propagate_body(e, 0); }
static __attribute__((noinline)) int propagate_ix(Enumerator *e) { return propagate_body(e, 1); }
#define PROPAGATE_PROBE(e) \
    ((e)->ipstart && ((e)->cursweep <= (e)->intersect || ((e)->ixnode && !(e)->probing)) ? \
     propagate_ix(e) : propagate(e))

/* the leaf check: 1 when every clause with a positive auxiliary literal holds with the
   open auxiliary variables false */
static int aux_ok(Enumerator *e) {
    const int *p = e->aux;
    const signed char *lval = e->lval;
    int i;
    for (i = 0; i < e->naux; i++) {
        int ok = 0;
        for (; *p; p++) {
            int l = *p;
            if (!ok && (lval[l] == 1 || (lval[l] == 0 && (l & 1)))) ok = 1;
        }
        p++;
        if (!ok) return 0;
    }
    return 1;
}

/* the literal to decide: the first open one of the open branching clause with the fewest
   literals left; 0 when none is open */
static int choose(Enumerator *e) {
    int best = -1, i;
    long long bk = 1, bw = 0;            /* the best so far: bk literals left, weight bw */
    for (i = 0; i < e->nbc; i++) {
        if (e->bctc[i] == 0) {
            long long k = e->bcnf[i], w = e->bcw[i];
            if (k * bw < bk * w) { bk = k; bw = w; best = i; }   /* k / w smallest */
        }
    }
    if (best >= 0) {
        const int *vs = e->bclit + e->bcstart[best];
        if (e->cap)                     /* counting candidates: an unseen one first */
            for (i = 0; i < e->bclen[best]; i++)
                if (e->lval[2 * vs[i]] == 0 && !e->seen[vs[i]]) return 2 * vs[i];
        for (i = 0; i < e->bclen[best]; i++)
            if (e->lval[2 * vs[i]] == 0) return 2 * vs[i];
    }
    for (i = 1; i <= e->nprim; i++)        /* a primary variable no such clause holds */
        if (e->lval[2 * i] == 0) return 2 * i;
    return 0;
}

/* branch 1, the choice when counting candidates up to a cap: the first open literal (an
   unseen one first) of the open *cell* clause with the fewest literals left per weight,
   the weights those of choose() halved every DECAY_EVERY conflicts of the walk
   (decay_weights). The house-digit clauses still propagate but are not branched on:
   a cell's clause holds each of its digits, and an unseen digit of a cell is what the
   walk is after (the workbench's variants, true candidates: 20 % less time with cap 1,
   9 % with cap 8; the hard unique ones no worse in all). Counting solutions takes it
   too, and walks again on choose() when it gives up (csp/cnf_enum.py BRANCH_COUNT,
   COUNT_RETRY); listing keeps choose(). Any choice walks every solution once, so the
   answers are the same. */
#define DECAY_EVERY 256
static int choose_cells(Enumerator *e) {
    int best = -1, i, j;
    long long bk = 1, bw = 0;
    for (j = 0; j < e->ncellbc; j++) {      /* the cells' clauses only (mark_cell_clauses) */
        i = e->cellbc[j];
        if (e->bctc[i] == 0) {
            long long k = e->bcnf[i], w = e->bcw[i];
            if (k * bw < bk * w) { bk = k; bw = w; best = i; }
        }
    }
    if (best >= 0) {
        const int *vs = e->bclit + e->bcstart[best];
        if (e->cap)
            for (i = 0; i < e->bclen[best]; i++)
                if (e->lval[2 * vs[i]] == 0 && !e->seen[vs[i]]) return 2 * vs[i];
        for (i = 0; i < e->bclen[best]; i++)
            if (e->lval[2 * vs[i]] == 0) return 2 * vs[i];
    }
    for (i = 1; i <= e->nprim; i++)    /* no open cell clause (not met: a cell's "at most
                                          one" sets the rest once one digit is true) */
        if (e->lval[2 * i] == 0) return 2 * i;
    return 0;
}

/* branch 1: a conflict of the walk (not of a probe); every DECAY_EVERY of them the
   weights halve, so recent conflicts weigh more than old ones */
static void decay_weights(Enumerator *e) {
    int i, j;
    if (++e->nconf % DECAY_EVERY) return;
    for (j = 0; j < e->ncellbc; j++) {  /* the cells' (the only ones bumped: mark_cell_clauses) */
        i = e->cellbc[j];
        e->bcw[i] = (e->bcw[i] >> 1) | 1;
    }
}

/* branch 1: list the branching clauses that are a cell's (all their variables one
   cell's), in their order, so that choose_cells() goes through those only, and keep only
   those in the occurrence lists: the literals left and true and the conflict weights of
   the house-digit and other clauses, which this walk never branches on, are no longer kept
   up to date at each assignment (the cells' are exactly as before: the same choices, the
   same walk; 12-15 % less CPU on the workbench variants' long counts, whose rules add
   many such clauses). 0, or -1 out of memory */
static int mark_cell_clauses(Enumerator *e) {
    int i, k, v;
    unsigned char *cell = (unsigned char *)calloc((size_t)e->nbc + 1, 1);
    e->cellbc = (int *)malloc(sizeof(int) * ((size_t)e->nbc + 1));
    if (!cell || !e->cellbc) { free(cell); return -1; }
    e->ncellbc = 0;
    for (i = 0; i < e->nbc; i++) {
        const int *vs = e->bclit + e->bcstart[i];
        int c0 = (vs[0] - 1) / e->n, same = 1;
        for (k = 1; k < e->bclen[i] && same; k++) same = (vs[k] - 1) / e->n == c0;
        cell[i] = (unsigned char)same;
        if (same) e->cellbc[e->ncellbc++] = i;
    }
    for (v = 1; v <= e->nprim; v++) {
        IntVec *o = &e->occ[v];
        for (i = 0, k = 0; i < o->n; i++)
            if (cell[o->a[i]]) o->a[k++] = o->a[i];
        o->n = k;
    }
    free(cell);
    return 0;
}

/* a leaf: every primary variable set. 0, or -1 out of memory */
static int record(Enumerator *e) {
    int c;
    e->found++;
    if (e->first == NULL) {
        e->first = (int *)malloc(sizeof(int) * (size_t)(e->size ? e->size : 1));
        if (!e->first) return -1;
        for (c = 0; c < e->size; c++) e->first[c] = e->cellvar[c] - c * e->n;
    }
    if (e->cap) {
        for (c = 0; c < e->size; c++) {
            int v = e->cellvar[c];
            if (e->counts[v] < (uint32_t)e->cap) e->gain_at = e->nodes;
            if (e->counts[v] < 0x7fffffffu) e->counts[v]++;
            if (!e->seen[v] && e->counts[v] >= (uint32_t)e->cap) {
                e->seen[v] = 1;
                e->unseen--;
            }
        }
    }
    if (e->keep) {
        for (c = 0; c < e->size; c++)
            if (vec_push(&e->sols, e->cellvar[c] - c * e->n) < 0) return -1;
    }
    return 0;
}

/* the share of the tree walked (Enumerator.progress): each decision's first branch
   counted as half its subtree */
static double tree_walked(const Enumerator *e) {
    double f = 0.0, w = 1.0;
    int L;
    if (e->finished) return 1.0;
    for (L = 1; L <= e->level && L < 1100; L++) {
        w *= 0.5;
        if (e->flipped[L]) f += w;
    }
    return f;
}

/* the long clauses' watches at the root's pause (save) or back to them (restore): the walk
   after the pause moves them, and the probing that goes on, and the walk after it, meet
   their conflicts as they would have without the pause only with the same watches (the
   same literals at the root, the same order of each watch list). The watch lists lie in
   one arena (each slice holds every entry it can ever have), so the arena, the lists'
   lengths and the clauses' literal order are the whole state. 0, or -1 (a list out of
   its slice, not expected, or out of memory: no pause, or the watches as they are) */
static int snap_watches(Enumerator *e, int save) {
    int i;
    for (i = 0; i < e->nlits; i++) if (e->ll[i].watch.own) return -1;
    if (save) {
        size_t tot = 0;
        for (i = 0; i < e->nlits; i++) tot += (size_t)e->ll[i].watch.cap;
        free(e->sn_clit); free(e->sn_warena); free(e->sn_wn);
        e->sn_clit = (int *)malloc(sizeof(int) * (size_t)e->nclit);
        e->sn_warena = (int *)malloc(sizeof(int) * (tot + 1));
        e->sn_wn = (int *)malloc(sizeof(int) * (size_t)e->nlits);
        if (!e->sn_clit || !e->sn_warena || !e->sn_wn) {
            free(e->sn_clit); free(e->sn_warena); free(e->sn_wn);
            e->sn_clit = e->sn_warena = e->sn_wn = NULL;
            return -1;
        }
        e->sn_wtotal = tot;
        memcpy(e->sn_clit, e->clit, sizeof(int) * (size_t)e->nclit);
        if (tot) memcpy(e->sn_warena, e->watch_arena, sizeof(int) * tot);
        for (i = 0; i < e->nlits; i++) e->sn_wn[i] = e->ll[i].watch.n;
    } else {
        if (!e->sn_clit) return -1;
        memcpy(e->clit, e->sn_clit, sizeof(int) * (size_t)e->nclit);
        if (e->sn_wtotal) memcpy(e->watch_arena, e->sn_warena, sizeof(int) * e->sn_wtotal);
        for (i = 0; i < e->nlits; i++) e->ll[i].watch.n = e->sn_wn[i];
    }
    return 0;
}

/* pause the root's probing within a sweep for a walk of `nodes` decisions (the first walks
   and the pause of a sweep that finds little): the sweep's counters kept for going on from
   cell q as if it had not paused, the walk's pace asked at decision `check` (0: none) */
static void pause_sweep(Enumerator *e, int sweeps, int set0, long long probed0, int changed,
                        int m, int q, long long nodes, long long check, int pace) {
    e->paused = 1;
    e->pz_sweeps = sweeps;
    e->pz_set0 = set0;
    e->pz_probed0 = probed0;
    e->pz_changed = changed;
    e->pz_m = m;
    e->pz_q = q;
    e->probe_after = e->nodes + nodes;
    e->pz_check = check;
    e->pz_pace = pace;
    e->pz_grew = 0;
    e->pz_found = e->found;
}

/* failed-literal probing at the current node (propagated, no conflict): each open
   candidate is placed and propagated; one that propagates to a conflict is false (its
   negation follows from the node's literals, so no solution is lost). Sweeps until one
   finds nothing. With lookahead, a cell's probes run one after another (the sweep goes
   cell by cell) and are read together once the cell's last digit is probed: when every
   open digit of the cell was probed without a conflict in this pass (one placed by an
   earlier probe of the sweep, not probed again, leaves the cell out) and the cell has
   a clause of its own digits (it takes one of them), a candidate literal (placed or
   ruled out) that all the cell's clean probes set holds at the node. Auxiliary
   literals would hold as well, but setting them made "Trollscraper" (u087, skyscraper
   automata) sweep twice as long for nothing (1,000 -> 1,981 probes, 351 more literals
   at the root, its walk giving up either way). Sound though the node may have gained literals
   between two of the cell's probes (a failed literal): a probe's literals follow from
   the literal and the node as it was, so from the node as it is; a digit that has gone
   false since is one more set to intersect, which only takes literals away. It finds
   what failed literals find later (a digit whose probe conflicts once the literal is
   set), so fewer sweeps: "Endless Knight" (u072) 5 sweeps, 2,179 probes, 126,338
   propagated literals -> 3 sweeps, 1,303 probes, 72,470; "Crawfish" (u082) 1,827 ->
   1,304 probes; where it finds nothing (u056) the walk is the same. The node after the
   sweeps holds every literal the probing without it sets: each literal that probing adds
   (a failed literal's negation, what unit propagation sets) is in every node without a
   conflict that holds the start and is closed under both, as this one is (its last
   sweep found nothing; or every cell is decided); tests/csp/test_cnf_enum.py.
   A sweep passes over the cells seen whole since the node last changed (cellok: the
   node's epoch when a pass over the cell began and ended with no change); their probes
   would set the same literals, none conflicting. So the sweep that confirms the
   fixpoint probes only the cells met before the last change, not the whole grid
   ("Whispering Rains", u070: 1,767 -> 1,363 probes; "Crawfish" 1,304 -> 1,072). A digit
   set by a clean probe of the sweep is passed over only while the node is as it was
   then (pmepoch); after a change it is probed.
   With probe_yield, probing also stops after a sweep, from the yield_from-th on (2 by
   default: the second), that set fewer candidate variables than probe_yield per mille of
   its probes (with yield_from 2 the first sets the stage: "Crawfish" on its automata's
   clauses finds 9 in its first sweep, 61 in its second, and is then decided; with its
   clues as natives it is decided in its first, and csp/cnf_enum.py passes 1):
   a long tail of sweeps that find a few literals each, and the whole sweep that
   confirms the fixpoint, cost more than the walk they would save ("Y Are We
   Whispering?", u068: 2,005 probes and 83 decisions -> 981 and 82; "Modular Nabner DA
   Coverage", u056). The node is then not closed under failed literals: every literal
   set still follows from the start.
   With resort, once the node has changed (a failed literal, the lookahead's literals) the
   cells left in the sweep are sorted again by their open digits (stable), at the end of
   the cell pass: a cell the change narrowed is probed next, where a failure or the
   lookahead is likeliest, and what it finds narrows the next ones. On the setter puzzles
   that probing decides, the cascade stays together: "Downright Odd" (u071) 463 -> 137
   probes (the kernel 1.8 -> 0.75 ms), "Sistine Hippos" (v32) 324 -> 148, u063 167 -> 102,
   "Exclusive Singularity" (u052) 931 -> 878; the replayed kernel calls of the unique and
   variants sets 2.4 % less in all ("Y Are We Whispering?", u068, and v08 lose 1-8 ms: a
   sweep that now finds more does not pause, a root reached another way walks longer).
   With pause (the root only, once, not after a walk: restart_probing), a sweep from the
   second on whose first `pause` probes or more set fewer candidate variables than
   probe_yield per mille of them pauses at the start of a cell's pass: the walk goes first
   (probe_after = pause_nodes decisions on), and restart_probing goes back to the root
   and on from that cell, with the epoch, sweep, counters, lookahead stamps and order of
   the paused sweep (nothing the walk touches) and the watches and conflict weights as
   they were at the pause, so the probing and the walk after it are those without the
   pause. "Endless Knight" (u072): its second sweep sets 70 variables in 480 probes, few
   in its first hundred; paused there, the walk ends in 73 decisions (1,210 -> 726 probes,
   the kernel 5.2 -> 3.5 ms).
   1: the node has no solution, 0: done, -1: out of memory */
static int clause_intersections(Enumerator *e);
static int build_intersections(Enumerator *e);
static void root_intersections(Enumerator *e);
static int probe(Enumerator *e) {
    int changed = 1, sweeps = 0;
    int n = e->n;
    int set0 = 0;                    /* the candidate variables set, the probes made ... */
    long long probed0 = 0;           /* ... when the sweep started */
    int clean = 0, whole = 0;        /* lookahead: the cell's clean probes; all probed */
    int passepoch = 0;               /* the epoch the cell's pass began at */
    int resume = e->paused == 1;     /* the root's paused probing goes on: the same node,
                                        epoch and sweep (its cells seen stay seen) */
    if (resume) {
        /* after a first walk the pause of a later sweep may still come, and after the
           first the second */
        e->paused = e->fw_state == 1 || e->fw_state == 4 ? 0 : 2;
        e->fw_state = e->fw_state == 1 && e->fw_again > 0 ? 3 : 2;
    } else {
        if (e->epoch > 0x3fffffff) { /* stamps start over */
            memset(e->cellok, 0xff, sizeof(int) * (size_t)e->size);
            memset(e->pmepoch, 0, sizeof(int) * ((size_t)e->nprim + 1));
            e->epoch = 0;
        }
        e->epoch++;                  /* a new node: no cell is seen at it yet */
    }
    e->cursweep = 0;
    if (!resume && (e->intersect || e->ixnode) && !e->ipbuilt) {
        /* the groups' intersections, on the first probe */
        e->ipbuilt = 1;
        if (e->ngroups && build_intersections(e) < 0) return -1;
        if (e->ipstart) {
            root_intersections(e);
            if (PROPAGATE_PROBE(e)) return 1;
        }
    }
    while (changed && sweeps < 64) {
        int v, c, q, m = 0, *open = e->porder + e->size, *at = open + e->size, q0 = 0;
        int built = e->epoch;
        if (resume) {                /* the paused sweep, from the cell it paused at */
            resume = 0;
            sweeps = e->pz_sweeps;
            e->cursweep = sweeps;
            set0 = e->pz_set0;
            probed0 = e->pz_probed0;
            changed = e->pz_changed;
            m = e->pz_m;
            q0 = e->pz_q;
            goto sweep_on;
        } else {
            if (sweeps >= e->yield_from && (long long)(e->prim_set - set0) * 1000 <
                          (long long)e->probe_yield * (e->probed - probed0))
                break;               /* the last sweep (from the yield_from-th) found too
                                        little for its probes */
            if (e->ipstart && (sweeps < e->intersect || e->ixnode) && clause_intersections(e)) {
                int r0 = PROPAGATE_PROBE(e);
                if (r0) return r0;
                e->epoch++;
                if (e->prim_set == e->nprim) return 0;
            }
            set0 = e->prim_set;
            probed0 = e->probed;
            changed = 0;
            sweeps++;
            e->cursweep = sweeps;
            if (sweeps == 1) e->hdone = e->hfound = 0;
            e->sweep++;
        }
        /* the open cells, fewest candidates first (in cell order within a count): a
           failed literal is found earlier in a sweep, and the probes after it see it
           (the unique set's kernel: 7 % fewer probes; the walks of the puzzles that
           the probing leaves open change either way); not the cells whose digits were
           all seen not to fail since the node last changed (cellok): their probes
           would set what they set then, which the lookahead has read */
        built = e->epoch;
        for (q = 0; q <= n; q++) at[q] = 0;
        for (c = 0; c < e->size; c++) {
            int d, k = 0;
            if (!e->cellvar[c] && e->cellok[c] != e->epoch)
                for (d = 1; d <= n; d++) k += e->lval[2 * (c * n + d)] == 0;
            else if (!e->cellvar[c])
                e->pskipped++;
            open[c] = k;
            if (k) at[k]++;
        }
        for (q = 0, m = 0; q <= n; q++) { int t = at[q]; at[q] = m; m += t; }
        for (c = 0; c < e->size; c++) if (open[c]) e->porder[at[open[c]]++] = c;
    sweep_on:
        for (q = q0; q < m * n; q++) {
            int pos, r, pset0, unseen0;
            if (q % n == 0 && sweeps == 1 && !e->paused && e->level == 0 &&
                (e->fw_state == 0 || (e->fw_state == 3 &&
                                      e->probed - probed0 >= e->fw_again)) &&
                snap_watches(e, 1) == 0) {
                /* the first walk: as the pause below, before any walk */
                int again = e->fw_state == 3;
                e->fw_state = again ? 4 : 1;
                e->fw_left = -1.0;
                e->fw_found = 0;
                e->fw_grew = 0;
                e->fw_thin = again && e->fw_found_on && (long long)(e->prim_set - set0) *
                             1000 < (long long)e->probe_yield * (e->probed - probed0);
                long long chk = again ? e->fw_check2 : e->fw_check;
                pause_sweep(e, sweeps, set0, probed0, changed, m, q, e->fw_nodes,
                            chk > 0 && chk < e->fw_nodes ? e->nodes + chk : 0,
                            again ? e->fw_pace2 : e->fw_pace);
                return 0;
            }
            if (q % n == 0 && sweeps >= 2 && e->pause && !e->paused && e->level == 0 &&
                e->probed - probed0 >= e->pause && (long long)(e->prim_set - set0) * 1000 <
                    (long long)e->probe_yield * (e->probed - probed0) &&
                snap_watches(e, 1) == 0) {
                /* the sweep finds too little so far: the walk first (restart_probing goes
                   on from here past pause_nodes decisions) */
                pause_sweep(e, sweeps, set0, probed0, changed, m, q, e->pause_nodes,
                            e->pause_pace ? e->nodes + e->pause_nodes / 3 : 0, e->pause_pace);
                return 0;
            }
            if (q % n == 0 && e->hskip && sweeps == 1 && e->level == 0 &&
                e->hcell[e->porder[q / n]] && e->hdone >= e->hskip && !e->hfound) {
                e->hskipped++;
                q += n - 1;
                continue;
            }
            if (q % n == 0) {            /* a cell's first digit: a new lookahead pass */
                passepoch = e->epoch;
                clean = 0;
                whole = e->lookahead && e->cellcl[e->porder[q / n]];
                if (whole && ++e->lagen == 0x7fffffff) {   /* stamps start over */
                    memset(e->lastamp, 0, sizeof(int) * (size_t)e->nlits);
                    e->lagen = 1;
                }
                e->lan = 0;
            }
            v = e->porder[q / n] * n + q % n + 1;
            /* a candidate that a placement probed in this sweep set (without a conflict)
               propagates to a part of what that placement did: no conflict either (while
               the node is as it was then: after a change it is probed, and its cell can
               be seen whole) */
            if (e->lval[2 * v] != 0 || (e->pmark[v] == e->sweep && e->pmepoch[v] == e->epoch)) {
                if (e->lval[2 * v] != -1) whole = 0;   /* placed, or not probed */
                goto cell_end;
            }
            pos = e->trail_n;
            pset0 = e->prim_set;
            unseen0 = e->unseen;
            e->probed++;
            if (GSNAP_ON(e) && e->gpsnap_pos != pos) {
                if (!e->gpsnap &&
                    !(e->gpsnap = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)e->ngroups)))
                    return -1;
                memcpy(e->gpsnap, e->gopen, sizeof(uint64_t) * (size_t)e->ngroups);
                e->gpsnap_pos = pos;
            }
            /* while probing: conflicts do not weigh, and the branching clauses' counts
               are left alone (the probe's literals are all undone below, with the same
               flag; nothing reads those counts in between) */
            e->probing = 1;
            assign(e, 2 * v);
            r = PROPAGATE_PROBE(e);
            if (r == 0) {
                /* one pass over the probe's literals: the candidates it placed mark the
                   sweep (pmark), and with the lookahead, the literals all clean probes of
                   the cell set so far */
                const int *tl = e->trail, nprim = e->nprim, sw = e->sweep, ep = e->epoch;
                int i, tn = e->trail_n, g = e->lagen, *pmark = e->pmark, *pmepoch = e->pmepoch;
                if (!whole) {
                    for (i = pos + 1; i < tn; i++) {
                        int l = tl[i];
                        if (!(l & 1) && (l >> 1) <= nprim) {
                            pmark[l >> 1] = sw;
                            pmepoch[l >> 1] = ep;
                        }
                    }
                } else if (clean == 0) {
                    int *lastamp = e->lastamp, *lacnt = e->lacnt, *labuf = e->labuf, lan = e->lan;
                    for (i = pos + 1; i < tn; i++) {
                        int l = tl[i];
                        if ((l >> 1) > nprim) continue;   /* candidates only */
                        if (!(l & 1)) {
                            pmark[l >> 1] = sw;
                            pmepoch[l >> 1] = ep;
                        }
                        lastamp[l] = g;
                        lacnt[l] = 1;
                        labuf[lan++] = l;
                    }
                    e->lan = lan;
                } else {
                    const int *lastamp = e->lastamp;
                    int *lacnt = e->lacnt;
                    for (i = pos + 1; i < tn; i++) {
                        int l = tl[i];
                        if (!(l & 1) && (l >> 1) <= nprim) {
                            pmark[l >> 1] = sw;
                            pmepoch[l >> 1] = ep;
                        }
                        if (lastamp[l] == g) lacnt[l]++;
                    }
                }
                if (whole) clean++;
            }
            undo_probe(e, pos, GSNAP_ON(e) ? e->gpsnap : NULL, pset0, unseen0);
            e->probing = 0;
            if (r < 0) return -1;
            if (r) {
                assign(e, 2 * v + 1);
                e->epoch++;              /* the node changed */
                r = PROPAGATE_PROBE(e);
                if (r) return r;
                changed = 1;
            }
            if (e->prim_set == e->nprim) return 0;
        cell_end:
            /* the cell's last digit: what all its clean probes set (two at least: one
               alone, the others failed, is placed by the cell's clause already) */
            if (q % n == n - 1 && whole && clean >= 2) {
                int i, any = 0;
                for (i = 0; i < e->lan; i++) {
                    int l = e->labuf[i];
                    if (e->lacnt[l] == clean && e->lval[l] == 0) {
                        assign(e, l);
                        e->implied++;
                        any = 1;
                    }
                }
                if (any) {
                    int r2 = PROPAGATE_PROBE(e);
                    if (r2) return r2;
                    e->epoch++;
                    changed = 1;
                    if (e->prim_set == e->nprim) return 0;
                }
            }
            /* the node as it was when the pass began: every open digit of the cell was
               probed without a conflict, or set by such a probe since the last change,
               and the lookahead read what it could; until the node changes, a pass over
               the cell would find nothing */
            if (q % n == n - 1 && e->epoch == passepoch)
                e->cellok[e->porder[q / n]] = e->epoch;
            if (q % n == n - 1 && e->hcell && e->hcell[e->porder[q / n]]) {
                if (e->epoch != passepoch) e->hfound = 1;
                else e->hdone++;
            }
            if (q % n == n - 1 && e->resort && e->epoch != built) {
                /* the node changed since the order was made: the cells left in the sweep,
                   fewest open digits first again (stable: in the order they had within a
                   count), so a cell the change narrowed comes next */
                int lo = q / n + 1, i2, j2;
                built = e->epoch;
                for (i2 = lo; i2 < m; i2++) {
                    int cc = e->porder[i2], d, k = 0;
                    if (!e->cellvar[cc])
                        for (d = 1; d <= n; d++) k += e->lval[2 * (cc * n + d)] == 0;
                    open[cc] = k;
                }
                for (i2 = lo + 1; i2 < m; i2++) {     /* insertion sort, stable */
                    int cc = e->porder[i2];
                    for (j2 = i2; j2 > lo && open[e->porder[j2 - 1]] > open[cc]; j2--)
                        e->porder[j2] = e->porder[j2 - 1];
                    e->porder[j2] = cc;
                }
            }
        }
    }
    return 0;
}

/* back to the root, forgetting what the walk saw (the tree is walked again from the
   start, so nothing is counted twice): 1 when probing the root finds no solution */
static int restart_probing(Enumerator *e) {
    int v;
    if (e->level > 0) undo_snap(e, e->lim[1], level_snap(e, 1));
    e->level = 0;
    e->need_bt = 0;
    e->qhead = e->trail_n;
    e->found = 0;
    e->sols.n = 0;                   /* the buffered solutions go too (found counts them) */
    e->gain_at = e->nodes;
    free(e->first);
    e->first = NULL;
    e->unseen = 0;
    for (v = 1; v <= e->nprim; v++) {
        e->counts[v] = 0;
        e->seen[v] = 0;
        if (e->lval[2 * v] != -1) e->unseen++;
    }
    e->probe_after = 0;
    e->pdone[0] = 1;
    if (e->paused == 0) e->paused = 2;   /* probing after a walk does not pause */
    if (e->paused != 1 && (e->fw_state == 0 || e->fw_state == 3)) e->fw_state = 2;
    else if (e->paused == 1) {           /* the walk after the pause leaves nothing: the
                                            weights and watches as they were then */
        for (v = 0; v < e->nbc; v++) e->bcw[v] = 1;
        e->nconf = 0;
        snap_watches(e, 0);
    }
    return probe(e);
}

/* the backtrack: 1 when the tree is exhausted */
static int backtrack(Enumerator *e) {
    while (e->level > 0) {
        int L = e->level;
        undo_snap(e, e->lim[L], level_snap(e, L));
        if (!e->flipped[L]) {
            int d = e->dec[L] ^ 1;
            e->flipped[L] = 1;
            e->dec[L] = d;
            e->pdone[L] = 0;
            e->qhead = e->trail_n;
            assign(e, d);
            return 0;
        }
        e->level--;
    }
    return 1;
}

static int search(Enumerator *e, long long max_nodes, long long max_props, long long stop_at) {
    long long node_end = e->nodes + max_nodes, prop_end = e->props + max_props;
    if (e->gave_up) return GAVE_UP;
    if (e->finished) return DONE;
    for (;;) {
        int r, lit;
        if (e->need_bt) {
            e->need_bt = 0;
            if (backtrack(e)) { e->finished = 1; return DONE; }
        }
        r = propagate(e);
        if (r < 0) { PyErr_NoMemory(); return -1; }
        if (r) {
            if (e->level == 0) { e->finished = 1; return DONE; }
            if (e->branch) decay_weights(e);
            e->need_bt = 1;
            continue;
        }
        if (e->cap && e->found >= 2 && e->unseen == 0) {   /* nothing new below */
            if (e->level == 0) { e->finished = 1; return DONE; }
            e->need_bt = 1;
            continue;
        }
        if (e->level < e->probe_depth && e->probe_after == 0 && !e->pdone[e->level] &&
            e->prim_set < e->nprim) {
            e->pdone[e->level] = 1;
            r = probe(e);
            if (r < 0) { PyErr_NoMemory(); return -1; }
            if (r) {
                if (e->level == 0) { e->finished = 1; return DONE; }
                e->need_bt = 1;
                continue;
            }
        }
        if (e->prim_set == e->nprim) {
            if (!aux_ok(e)) { e->gave_up = 1; return GAVE_UP; }
            if (record(e) < 0) { PyErr_NoMemory(); return -1; }
            if (e->level == 0) { e->finished = 1; return DONE; }
            e->need_bt = 1;
            if (stop_at > 0 && e->found >= stop_at) return STOPPED;
            continue;
        }
        if (e->nodes >= node_end || e->props >= prop_end) return PAUSED;
        if (e->probe_after > 0 && e->nodes >= e->probe_after && e->cap && e->found >= 2 &&
            e->paused != 1) {
            /* counting candidates past two solutions: the walk's "all seen" cuts depend on
               what it has seen, which a restart forgets (measured: more decisions, not
               fewer); no probing then */
            e->probe_after = 0;
            e->probe_depth = 0;
        }
        if (e->paused == 1 && e->pz_check && e->nodes >= e->pz_check) {
            if (e->fw_state == 1 || e->fw_state == 4) {
                /* the first walk, at first_check decisions and each doubling of them: on
                   while the share of its tree left, times the decisions made, stays
                   within first_pace (per mille of a decision) */
                double left = 1.0 - tree_walked(e);
                if (e->fw_thin && e->found > e->fw_found)
                    e->fw_grew = 1;      /* it finds solutions where the probing finds
                                            little: on (again_found) */
                else if (e->fw_state == 4 && e->fw_left < 0.0 && e->fw_none && left >= 1.0)
                    e->probe_after = e->nodes;   /* the second, at its first check with
                                            none of its tree walked (again_none): back */
                else if (e->fw_state == 4 || e->fw_left < 0.0
                        ? left * (double)e->nodes * 1000.0 > (double)e->pz_pace
                        : left * 1000.0 > e->fw_left * (double)e->fw_shrink)
                    e->probe_after = e->nodes;
                e->fw_found = e->found;
                e->fw_left = left;
                e->pz_check = 2 * e->nodes;
            } else {
                /* a third of the walk after the pause: on only at the pace to end within it,
                   or (pause_found) where it has found solutions since the last check: on,
                   checked again at the doubling */
                if (e->pz_found_on && e->found > e->pz_found) {
                    e->pz_grew = 1;
                    e->pz_found = e->found;
                    e->pz_check = 2 * e->nodes;
                } else {
                    /* none found since: back to the probing when it is not at the pace,
                       or past pause_nodes */
                    if ((e->pz_grew && e->probe_after == 0) || tree_walked(e) * 1000 < e->pz_pace)
                        e->probe_after = e->nodes;
                    e->pz_check = 0;
                    e->pz_grew = 0;
                }
            }
        }
        if (e->pz_grew && e->paused == 1 && e->fw_state != 1 && e->fw_state != 4 &&
            e->probe_after > 0 && e->nodes >= e->probe_after)
            e->probe_after = 0;          /* past pause_nodes, on while each check (at each
                                            doubling of the decisions) finds solutions */
        if (e->fw_grew && e->paused == 1 && e->fw_state == 4 && e->probe_after > 0 &&
            e->nodes >= e->probe_after)
            e->probe_after = 0;          /* past its budget, on while each check (at each
                                            doubling of the decisions) finds solutions */
        if (e->probe_after > 0 && e->nodes >= e->probe_after) {
            /* the decisions count again from 0 (the caller's budget is for this walk),
               with what is left of this call's */
            node_end -= e->nodes;
            e->nodes = 0;
            r = restart_probing(e);
            if (r < 0) { PyErr_NoMemory(); return -1; }
            if (r) { e->finished = 1; return DONE; }
            continue;
        }
        lit = e->branch ? choose_cells(e) : choose(e);
        if (!lit) { e->gave_up = 1; return GAVE_UP; }   /* not reached: prim_set counts */
        if (save_level(e, e->level + 1) < 0) { PyErr_NoMemory(); return -1; }
        e->nodes++;
        e->level++;
        e->lim[e->level] = e->trail_n;
        e->dec[e->level] = lit;
        e->flipped[e->level] = 0;
        e->pdone[e->level] = 0;
        assign(e, lit);
    }
}

/* ------------------------------------------------------------------------------------ */

static void Enumerator_dealloc(Enumerator *e) {
    int i;
    if (e->ll)
        for (i = 0; i < e->nlits; i++) {
            if (e->ll[i].watch.own) free(e->ll[i].watch.a);
            if (e->ll[i].bins.own) free(e->ll[i].bins.a);
            if (e->ll[i].gocc.own) free(e->ll[i].gocc.a);
        }
    if (e->occ) { for (i = 0; i <= e->nprim; i++) if (e->occ[i].own) free(e->occ[i].a); }
    free(e->ll); free(e->gocc_arena); free(e->ipstart); free(e->ipmax); free(e->mpstart); free(e->mplist); free(e->ipb); free(e->ipin); free(e->ipout); free(e->gstart); free(e->glit); free(e->gopen); free(e->gsnap); free(e->gpsnap);
    free(e->occ);
    free(e->watch_arena); free(e->bins_arena); free(e->occ_arena);
    free(e->sn_clit); free(e->sn_warena); free(e->sn_wn);
    free(e->lval); free(e->clit); free(e->cstart);
    free(e->bcstart); free(e->bclen); free(e->bclit); free(e->bcnf); free(e->bctc); free(e->bcw);
    free(e->cellbc);
    free(e->aux); free(e->trail); free(e->lim); free(e->dec); free(e->flipped); free(e->pdone); free(e->pmark); free(e->pmepoch); free(e->cellok);
    free(e->hcell);
    free(e->porder); free(e->cellcl); free(e->lastamp); free(e->lacnt); free(e->labuf);
    free(e->cellvar); free(e->counts); free(e->seen); free(e->sols.a); free(e->first);
    free(e->natd); free(e->natstart); free(e->nocstart); free(e->noclist); free(e->natstamp); free(e->natq); free(e->rx); free(e->ra); free(e->cmask); free(e->vnat);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

/* the longest "at most one" group (a tuple) Enumerator takes */
#define MAX_GROUP 4096

/* where the second pass of Enumerator_init stands */
typedef struct {
    Py_ssize_t pos, bpos, apos;      /* in clit, bclit, aux */
    int *units;
    int nunits, empty;
    int *pairs;                      /* the binary clauses, two literal indices each */
    Py_ssize_t npairs;
    int *degb, *degw, *dego;         /* per literal: binary partners, long clauses; per
                                        primary variable: branching clauses */
} Fill;

/* one clause (literal indices tmp[0..m), no duplicate, no tautology) into e: a unit,
   a binary implication, or a watched long clause (not with `nowatch`: the "at least
   one" of a native group, which propagates it); a branching clause too when all its
   literals are positive primary ones, a leaf check when one is a positive auxiliary */
static int insert_clause(Enumerator *e, const int *tmp, int m, Fill *f, int nowatch) {
    int k, allprim = 1, posaux = 0;
    if (m == 0) { f->empty = 1; return 0; }
    if (m == 1) { f->units[f->nunits++] = tmp[0]; return 0; }
    for (k = 0; k < m; k++) {
        int var = tmp[k] >> 1, neg = tmp[k] & 1;
        if (neg || var > e->nprim) allprim = 0;
        if (!neg && var > e->nprim) posaux = 1;
    }
    if (posaux) {
        for (k = 0; k < m; k++) e->aux[f->apos++] = tmp[k];
        e->aux[f->apos++] = 0;
        e->naux++;
    }
    if (allprim) {
        e->bcstart[e->nbc] = (int)f->bpos;
        e->bclen[e->nbc] = m;
        for (k = 0; k < m; k++) {
            int var = tmp[k] >> 1;
            e->bclit[f->bpos++] = var;
            f->dego[var]++;
        }
        e->nbc++;
    }
    if (nowatch) return 0;
    if (m == 2) {
        f->pairs[2 * f->npairs] = tmp[0];
        f->pairs[2 * f->npairs + 1] = tmp[1];
        f->npairs++;
        f->degb[tmp[0]]++;
        f->degb[tmp[1]]++;
        return 0;
    }
    e->clit[f->pos++] = m;
    e->cstart[e->nclauses] = (int)f->pos;
    for (k = 0; k < m; k++) {
        e->clit[f->pos++] = tmp[k];
        f->degw[tmp[k]]++;
    }
    e->nclauses++;
    return 0;
}

static int lit_index(long x) { return x > 0 ? (int)(2 * x) : (int)(2 * (-x) + 1); }

/* the clauses as one array of ints, whichever way they came (a Python sequence, or made
   here from the houses): per clause a header, its length << 1 (| 1 for an "at most one"
   group), then its literals (signed variables) */
typedef struct { int *a; Py_ssize_t n, cap; } Stream;

static int st_push(Stream *s, int x) {
    if (s->n == s->cap) {
        Py_ssize_t nc = s->cap ? 2 * s->cap : 1024;
        int *na = (int *)realloc(s->a, sizeof(int) * (size_t)nc);
        if (!na) { PyErr_NoMemory(); return -1; }
        s->a = na;
        s->cap = nc;
    }
    s->a[s->n++] = x;
    return 0;
}

/* a small int's value without a call (the literals are compact ints); 0: not one */
static inline int small_long(PyObject *o, long *out) {
#if PY_VERSION_HEX >= 0x030C0000
    if (PyLong_CheckExact(o) && PyUnstable_Long_IsCompact((PyLongObject *)o)) {
        *out = (long)PyUnstable_Long_CompactValue((PyLongObject *)o);
        return 1;
    }
#else
    if (PyLong_CheckExact(o)) {
        Py_ssize_t sz = Py_SIZE(o);
        if (sz >= -1 && sz <= 1) {
            long d = sz ? (long)((PyLongObject *)o)->ob_digit[0] : 0;
            *out = sz < 0 ? -d : d;
            return 1;
        }
    }
#endif
    return 0;
}

/* a packed block (csp/_packed.h: a bytearray of the stream's own records, written by the
   clause writers of csp._auto_kernel and csp.constraints._linear_kernel) appended to the
   stream, checked as the Python clauses are: whole records, lengths within bounds,
   literals in range. 0, or -1 with the error set */
static int stream_from_block(Stream *s, PyObject *ba, int nvars) {
    Py_ssize_t bytes = PyByteArray_GET_SIZE(ba), len = bytes / (Py_ssize_t)sizeof(int), p;
    const int *a;
    if (bytes % (Py_ssize_t)sizeof(int)) {
        PyErr_SetString(PyExc_ValueError, "a packed block of whole ints expected");
        return -1;
    }
    if (s->n + len > s->cap) {
        Py_ssize_t nc2 = 2 * (s->n + len);
        int *na = (int *)realloc(s->a, sizeof(int) * (size_t)(nc2 + 1));
        if (!na) { PyErr_NoMemory(); return -1; }
        s->a = na;
        s->cap = nc2 + 1;
    }
    memcpy(s->a + s->n, PyByteArray_AS_STRING(ba), (size_t)bytes);
    a = s->a + s->n;
    {
        /* checked where it now stands: a literal x is out of range when x + nvars, as
           unsigned, passes 2 nvars (or x is 0), OR-ed without a branch a literal */
        unsigned un = (unsigned)nvars, twice = 2u * (unsigned)nvars, bad = 0;
        for (p = 0; p < len;) {
            int h = a[p], k, group = h & 1;
            Py_ssize_t m = h >> 1;
            if (h < 0 || m > (group ? MAX_GROUP : 1000000) || p + 1 + m > len) {
                PyErr_SetString(PyExc_ValueError, "a packed block: bad record");
                return -1;
            }
            for (k = 1; k <= m; k++) {
                int x = a[p + k];
                bad |= ((unsigned)x + un > twice) | (x == 0);
            }
            p += 1 + m;
        }
        if (bad) {
            PyErr_SetString(PyExc_ValueError, "literal out of range");
            return -1;
        }
    }
    s->n += len;
    return 0;
}

/* the Python clauses (lists, and tuples for "at most one" groups, and packed blocks),
   checked: 0, or -1 with the error set. The stream is sized once (a header and the
   literals a clause) */
static int stream_from_seq(Stream *s, PyObject *seq, int nvars) {
    Py_ssize_t nc = PySequence_Fast_GET_SIZE(seq), i, need = 0;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    if (nc > 200000000) { PyErr_SetString(PyExc_ValueError, "too many clauses"); return -1; }
    for (i = 0; i < nc; i++) {       /* the size: lists and tuples read directly */
        PyObject *cl = items[i];
        if (PyByteArray_CheckExact(cl))   /* a packed block: its records as they stand */
            need += PyByteArray_GET_SIZE(cl) / (Py_ssize_t)sizeof(int);
        else
            need += 1 + ((PyList_Check(cl) || PyTuple_Check(cl)) ? Py_SIZE(cl) : 0);
    }
    if (need > s->cap) {
        int *na = (int *)realloc(s->a, sizeof(int) * (size_t)(need + 1));
        if (!na) { PyErr_NoMemory(); return -1; }
        s->a = na;
        s->cap = need + 1;
    }
    for (i = 0; i < nc; i++) {
        PyObject *cl = items[i];
        int group = PyTuple_Check(cl);
        PyObject *cs;
        if (PyByteArray_CheckExact(cl)) {
            if (stream_from_block(s, cl, nvars) < 0) return -1;
            continue;
        }
        cs = PySequence_Fast(cl, "a clause must be a sequence");
        PyObject **lits;
        Py_ssize_t k, len;
        if (!cs) return -1;
        len = PySequence_Fast_GET_SIZE(cs);
        lits = PySequence_Fast_ITEMS(cs);
        if (len > (group ? MAX_GROUP : 1000000)) {
            Py_DECREF(cs);
            PyErr_SetString(PyExc_ValueError, group ? "group too long" : "clause too long");
            return -1;
        }
        if (s->n + 1 + len > s->cap) {   /* not a list or tuple: grown as it comes */
            Py_ssize_t nc2 = 2 * (s->n + 1 + len);
            int *na = (int *)realloc(s->a, sizeof(int) * (size_t)nc2);
            if (!na) { Py_DECREF(cs); PyErr_NoMemory(); return -1; }
            s->a = na;
            s->cap = nc2;
        }
        s->a[s->n++] = (int)(len << 1) | group;
        for (k = 0; k < len; k++) {
            long x;
            if (!small_long(lits[k], &x)) {
                x = PyLong_AsLong(lits[k]);
                if (x == -1 && PyErr_Occurred()) { Py_DECREF(cs); return -1; }
            }
            if (x == 0 || x > nvars || x < -(long)nvars) {
                Py_DECREF(cs);
                PyErr_SetString(PyExc_ValueError, "literal out of range");
                return -1;
            }
            s->a[s->n++] = (int)x;
        }
        Py_DECREF(cs);
    }
    return 0;
}

/* the CNF of a model made only of all-different rules, as csp.sat.encode writes it with
   compact=True (n at most AMO_PAIRWISE) and csp.sat.SatSession adds its unit clauses,
   clause for clause and in the same order: per cell (row-major) its "some digit" clause
   and, with two digits or more, its "at most one" group; per rule (`houses`, each a
   sequence of cells, in the puzzle's order; one of fewer than two distinct cells adds
   nothing), its cells sorted, per digit 1..n its "at most one" group of the cells holding
   it (two or more) and, when the rule has n cells, the clause "somewhere"; then a unit
   clause setting false each candidate outside `cand` and each of the n numbers after the
   candidates (size * n + 1 .. size * n + n). 0, or -1 with the error set */
static int stream_from_houses(Stream *s, int n, int size, PyObject *cand, PyObject *houses) {
    unsigned long long *m = NULL, full;
    int *mark = NULL, *cells = NULL, c, d, h = 0;
    PyObject *hs = NULL;
    Py_ssize_t nh, i;
    if (n > 62) { PyErr_SetString(PyExc_ValueError, "houses: at most 62 digits"); return -1; }
    full = ((1ULL << n) - 1) << 1;
    if (!PyList_Check(cand) || PyList_GET_SIZE(cand) != size) {
        PyErr_SetString(PyExc_TypeError, "cand: a list of size masks expected");
        return -1;
    }
    m = (unsigned long long *)malloc(sizeof(unsigned long long) * (size_t)size);
    mark = (int *)malloc(sizeof(int) * (size_t)size);
    cells = (int *)malloc(sizeof(int) * (size_t)size);
    if (!m || !mark || !cells) { PyErr_NoMemory(); goto fail; }
    for (c = 0; c < size; c++) {
        unsigned long long x = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(cand, c));
        if (x == (unsigned long long)-1 && PyErr_Occurred()) goto fail;
        if (x & ~full) { PyErr_SetString(PyExc_ValueError, "cand: a digit out of range"); goto fail; }
        m[c] = x;
        mark[c] = -1;
    }
    for (c = 0; c < size; c++) {            /* the cells */
        int k = __builtin_popcountll(m[c]), g;
        for (g = 0; g < (k > 1 ? 2 : 1); g++) {
            if (st_push(s, (k << 1) | g) < 0) goto fail;
            for (d = 1; d <= n; d++)
                if (m[c] >> d & 1 && st_push(s, c * n + d) < 0) goto fail;
        }
    }
    hs = PySequence_Fast(houses, "houses must be a sequence");
    if (!hs) goto fail;
    nh = PySequence_Fast_GET_SIZE(hs);
    for (i = 0; i < nh; i++, h++) {           /* the rules */
        PyObject *hc = PySequence_Fast(PySequence_Fast_GET_ITEM(hs, i),
                                       "a house must be a sequence of cells");
        Py_ssize_t k, len;
        int nk = 0, a, b;
        if (!hc) goto fail;
        len = PySequence_Fast_GET_SIZE(hc);
        for (k = 0; k < len; k++) {
            long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(hc, k));
            if (x == -1 && PyErr_Occurred()) { Py_DECREF(hc); goto fail; }
            if (x < 0 || x >= size) {
                Py_DECREF(hc);
                PyErr_SetString(PyExc_ValueError, "houses: a cell out of range");
                goto fail;
            }
            if (mark[x] != h) { mark[x] = h; cells[nk++] = (int)x; }
        }
        Py_DECREF(hc);
        if (nk < 2) continue;
        for (a = 1; a < nk; a++) {            /* sorted (a house has few cells) */
            int x = cells[a];
            for (b = a; b > 0 && cells[b - 1] > x; b--) cells[b] = cells[b - 1];
            cells[b] = x;
        }
        for (d = 1; d <= n; d++) {
            int cnt = 0, g;
            for (a = 0; a < nk; a++) cnt += (int)(m[cells[a]] >> d & 1);
            for (g = 1; g >= 0; g--) {        /* the group first, then the clause */
                if (g ? cnt < 2 : nk != n) continue;
                if (st_push(s, (cnt << 1) | g) < 0) goto fail;
                for (a = 0; a < nk; a++)
                    if (m[cells[a]] >> d & 1 && st_push(s, cells[a] * n + d) < 0) goto fail;
            }
        }
    }
    for (c = 0; c < size; c++)                /* the units */
        for (d = 1; d <= n; d++)
            if (!(m[c] >> d & 1) && (st_push(s, 2) < 0 || st_push(s, -(c * n + d)) < 0))
                goto fail;
    for (d = 1; d <= n; d++)
        if (st_push(s, 2) < 0 || st_push(s, -(size * n + d)) < 0) goto fail;
    Py_DECREF(hs);
    free(m); free(mark); free(cells);
    return 0;
fail:
    Py_XDECREF(hs);
    free(m); free(mark); free(cells);
    return -1;
}

/* the clauses at stream positions a and b have the same literals in the same order */
static int same_clause(const Stream *st, Py_ssize_t a, Py_ssize_t b) {
    int len = st->a[a] >> 1;
    return len == st->a[b] >> 1 &&
           memcmp(st->a + a + 1, st->a + b + 1, sizeof(int) * (size_t)len) == 0;
}

/* the native groups (groups=1): per stream position of a clause, fl |= 1 for a group
   kept as one (2 to 56 distinct positive literals), | 2 for such a group with its "at
   least one" clause (the clause just before it, or else just after it, with the same
   literals in the same order: a cell's "some digit" clause comes before its group, a
   house's "this digit somewhere" after), | 4 for that clause. The number of groups */
static Py_ssize_t mark_groups(const Stream *st, unsigned char *fl, int *stamp) {
    Py_ssize_t sp, prev = -1, ng = 0;
    int sid = 0;
    for (sp = 0; sp < st->n;) {
        int len = st->a[sp] >> 1, k, ok;
        Py_ssize_t next = sp + 1 + len;
        if ((st->a[sp] & 1) && len >= 2 && len <= 56 && ng < (1 << 23)) {
            sid++;
            for (k = 0, ok = 1; k < len && ok; k++) {
                int x = st->a[sp + 1 + k];
                if (x < 0 || stamp[x] == sid) ok = 0;   /* positive, distinct */
                else stamp[x] = sid;
            }
            if (ok) {
                fl[sp] |= 1;
                ng++;
                if (prev >= 0 && !(st->a[prev] & 1) && !(fl[prev] & 4) &&
                    same_clause(st, prev, sp)) {
                    fl[prev] |= 4; fl[sp] |= 2;
                } else if (next < st->n && !(st->a[next] & 1) && same_clause(st, next, sp)) {
                    fl[next] |= 4; fl[sp] |= 2;
                }
            }
        }
        prev = sp;
        sp = next;
    }
    return ng;
}

/* group a is exactly one (its entries in gocc say so) */
static int group_exact(const Enumerator *e, int a) {
    const IntVec *o = &e->ll[e->glit[e->gstart[a]]].gocc;
    int j;
    for (j = 0; j < o->n; j++) if (o->a[j] >> 7 == a) return (o->a[j] & 64) != 0;
    return 0;
}

/* intersect=1: the pairs of groups (a exactly one, b any, sharing 2 or more members, b
   holding members outside a). 0, or -1 out of memory */
static int build_intersections(Enumerator *e) {
    int ng = e->ngroups, a, cap = 0, np = 0;
    int *mark = (int *)malloc(sizeof(int) * (size_t)ng);
    int *lst = (int *)malloc(sizeof(int) * (size_t)ng);
    int *cnt = (int *)calloc((size_t)ng, sizeof(int));
    int *lmark = (int *)malloc(sizeof(int) * (size_t)e->nlits);   /* per literal: the group
                                        a whose member it is (its index in lidx) */
    unsigned char *lidx = (unsigned char *)malloc((size_t)e->nlits);
    uint64_t *ina = NULL, *inb = NULL;
    e->ipstart = (int *)malloc(sizeof(int) * ((size_t)ng + 1));
    e->ipmax = (unsigned char *)calloc((size_t)ng + 1, 1);
    if (!mark || !lst || !cnt || !lmark || !lidx || !e->ipstart || !e->ipmax) goto nomem;
    for (a = 0; a < ng; a++) mark[a] = -1;
    for (a = 0; a < e->nlits; a++) lmark[a] = -1;
    for (a = 0; a < ng; a++) {
        int k, nl = 0, j;
        e->ipstart[a] = np;
        if (!group_exact(e, a)) continue;
        for (k = e->gstart[a]; k < e->gstart[a + 1]; k++) {
            const IntVec *o = &e->ll[e->glit[k]].gocc;
            lmark[e->glit[k]] = a;
            lidx[e->glit[k]] = (unsigned char)(k - e->gstart[a]);
            for (j = 0; j < o->n; j++) {
                int b = o->a[j] >> 7;
                if (b == a) continue;
                if (mark[b] != a) { mark[b] = a; cnt[b] = 0; lst[nl++] = b; }
                cnt[b]++;
            }
        }
        for (j = 0; j < nl; j++) {
            int b = lst[j], lb = e->gstart[b + 1] - e->gstart[b], q;
            uint64_t out, in_a = 0, in_b = 0;
            if (cnt[b] < 2) continue;
            for (q = 0; q < lb; q++) {      /* the members b shares with a */
                int m = e->glit[e->gstart[b] + q];
                if (lmark[m] == a) { in_a |= 1ULL << lidx[m]; in_b |= 1ULL << q; }
            }
            out = (lb == 64 ? ~0ULL : (1ULL << lb) - 1) & ~in_b;
            if (!out) continue;
            if (np == cap) {
                int nc = cap ? 2 * cap : 256;
                int *nb = (int *)realloc(e->ipb, sizeof(int) * (size_t)nc);
                uint64_t *ni, *no;
                if (!nb) goto nomem;
                e->ipb = nb;
                ni = (uint64_t *)realloc(e->ipin, sizeof(uint64_t) * (size_t)nc);
                if (!ni) goto nomem;
                e->ipin = ni;
                no = (uint64_t *)realloc(e->ipout, sizeof(uint64_t) * (size_t)nc);
                if (!no) goto nomem;
                e->ipout = no;
                cap = nc;
            }
            e->ipb[np] = b; e->ipin[np] = in_a; e->ipout[np] = out;
            if (cnt[b] > e->ipmax[a]) e->ipmax[a] = (unsigned char)cnt[b];
            np++;
        }
    }
    e->ipstart[ng] = np;
    if (np) {                        /* per member: the pairs holding it */
        int tot = e->gstart[ng], p, k, q = 0;
        e->mpstart = (int *)calloc((size_t)tot + 2, sizeof(int));
        if (!e->mpstart) goto nomem;
        for (a = 0; a < ng; a++)
            for (p = e->ipstart[a]; p < e->ipstart[a + 1]; p++) {
                uint64_t m = e->ipin[p];
                for (; m; m &= m - 1) { e->mpstart[e->gstart[a] + __builtin_ctzll(m) + 1]++; q++; }
            }
        for (k = 0; k < tot; k++) e->mpstart[k + 1] += e->mpstart[k];
        e->mplist = (int *)malloc(sizeof(int) * ((size_t)q + 1));
        if (!e->mplist) goto nomem;
        {
            int *cur = (int *)malloc(sizeof(int) * ((size_t)tot + 1));
            if (!cur) goto nomem;
            memcpy(cur, e->mpstart, sizeof(int) * (size_t)tot);
            for (a = 0; a < ng; a++)
                for (p = e->ipstart[a]; p < e->ipstart[a + 1]; p++) {
                    uint64_t m = e->ipin[p];
                    for (; m; m &= m - 1) e->mplist[cur[e->gstart[a] + __builtin_ctzll(m)]++] = p;
                }
            free(cur);
        }
    }
    if (np == 0) { free(e->ipstart); e->ipstart = NULL; free(e->ipmax); e->ipmax = NULL; }
    free(mark); free(lst); free(cnt); free(lmark); free(lidx); free(ina); free(inb);
    return 0;
nomem:
    free(mark); free(lst); free(cnt); free(lmark); free(lidx); free(ina); free(inb);
    free(e->ipstart); e->ipstart = NULL; free(e->ipmax); e->ipmax = NULL;
    return -1;
}

/* the root: every pair checked once (a group may start inside another) */
static void root_intersections(Enumerator *e) {
    int a, p;
    for (a = 0; a < e->ngroups; a++) {
        uint64_t o = e->gopen[a];
        if (o >= G_TRUE || !(o & (o - 1))) continue;
        for (p = e->ipstart[a]; p < e->ipstart[a + 1]; p++)
            intersect_pair(e, o, p);
    }
}

/* intersect=1, at a node (between probing sweeps): an all-positive clause of candidates
   (the branching clauses: a renban's "this digit somewhere" ...) whose open literals all
   lie in one native group b (at most one) makes b's other members false: the clause's
   true literal is one of b's. The number of literals set */
static int clause_intersections(Enumerator *e) {
    int i, set = 0;
    const signed char *lval = e->lval;
    if (!e->ngroups) return 0;
    for (i = 0; i < e->nbc; i++) {
        const int *vs = e->bclit + e->bcstart[i];
        int len = e->bclen[i], k, first = -1, nopen = 0, j;
        const IntVec *g;
        for (k = 0; k < len; k++) {
            int l = 2 * vs[k];
            if (lval[l] == 1) break;
            if (lval[l] == 0) { if (first < 0) first = l; nopen++; }
        }
        if (k < len || nopen < 2) continue;       /* met, or unit / empty (propagation's) */
        g = &e->ll[first].gocc;
        for (j = 0; j < g->n; j++) {
            int b = g->a[j] >> 7, q, m, blen = e->gstart[b + 1] - e->gstart[b];
            const int *bl = e->glit + e->gstart[b];
            uint64_t in = 0, rest;
            if ((int)__builtin_popcountll(e->gopen[b] & G_OPEN) <= nopen) continue;
            for (k = 0; k < len; k++) {
                int l = 2 * vs[k];
                if (lval[l] != 0) continue;
                for (q = 0; q < blen && bl[q] != l; q++) {}
                if (q == blen) break;
                in |= 1ULL << q;
            }
            if (k < len) continue;
            rest = e->gopen[b] & G_OPEN & ~in;
            while (rest) {
                m = bl[__builtin_ctzll(rest)];
                rest &= rest - 1;
                assign(e, m ^ 1);
                e->crossed++;
                set++;
            }
        }
    }
    return set;
}

/* Enumerator(nvars, n, size, clauses, cap=0, keep=False, probe=0, probe_after=0, branch=0,
              cand=None, houses=None, lookahead=0, groups=1, probe_yield=0, pause=0,
              pause_nodes=0, pause_pace=0, resort=0, intersect=0, ixnode=0)
   clauses None: the CNF of the all-different rules `houses` over the candidate masks
   `cand` (stream_from_houses; nvars is then size * n + n) */
/* natives=: a sequence of (kind, seen, first, last, cells) (kind 0: a skyscraper clue,
   `seen` buildings seen along `cells`, nearest first; its automaton's state variables
   first..last, whose clauses are left out of the stream: nat_sky propagates the rule
   instead). 0, or -1 with the error set */
static int read_natives(Enumerator *e, PyObject *natives, int nvars, int n, int size,
                        unsigned char **dropped) {
    PyObject *seq = PySequence_Fast(natives, "natives must be a sequence");
    Py_ssize_t nn, i, tot = 0;
    int *deg = NULL;
    if (!seq) return -1;
    nn = PySequence_Fast_GET_SIZE(seq);
    if (nn > 100000) { PyErr_SetString(PyExc_ValueError, "too many natives"); goto fail; }
    e->natstart = (int *)malloc(sizeof(int) * ((size_t)nn + 1));
    e->natd = (int *)malloc(sizeof(int) * ((size_t)nn * (3 + 64) + 1));
    e->natstamp = (int *)calloc((size_t)nn + 1, sizeof(int));
    e->natq = (int *)malloc(sizeof(int) * ((size_t)nn + 1));
    e->rx = (int *)malloc(sizeof(int) * ((size_t)nn + 1));
    e->ra = (int *)malloc(sizeof(int) * (2 * (size_t)nn + 2));
    e->nocstart = (int *)calloc((size_t)size + 1, sizeof(int));
    *dropped = (unsigned char *)calloc((size_t)nvars + 1, 1);
    deg = (int *)calloc((size_t)size + 1, sizeof(int));
    if (!e->natstart || !e->natd || !e->natstamp || !e->natq || !e->nocstart || !*dropped ||
        !e->rx || !e->ra ||
        !deg) { PyErr_NoMemory(); goto fail; }
    for (i = 0; i < nn; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(seq, i), *cs;
        long kind, seen, lo, hi;
        Py_ssize_t k, j;
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 5) {
            PyErr_SetString(PyExc_ValueError, "a native is (kind, seen, first, last, cells)");
            goto fail;
        }
        kind = PyLong_AsLong(PyTuple_GET_ITEM(t, 0));
        seen = PyLong_AsLong(PyTuple_GET_ITEM(t, 1));
        lo = PyLong_AsLong(PyTuple_GET_ITEM(t, 2));
        hi = PyLong_AsLong(PyTuple_GET_ITEM(t, 3));
        if (PyErr_Occurred()) goto fail;
        cs = PySequence_Fast(PyTuple_GET_ITEM(t, 4), "a native's cells must be a sequence");
        if (!cs) goto fail;
        k = PySequence_Fast_GET_SIZE(cs);
        if ((kind == 0 ? seen < 1 || seen > 15 : kind != 1 || seen != 0) ||
            k < 1 || k > 64 || k > n || n > 62 ||
            (lo <= hi && (lo <= (long)size * n || hi > nvars))) {
            Py_DECREF(cs);
            PyErr_SetString(PyExc_ValueError, "bad native");
            goto fail;
        }
        e->natstart[i] = (int)tot;
        e->natd[tot++] = (int)kind;
        e->natd[tot++] = (int)seen;
        e->natd[tot++] = (int)k;
        for (j = 0; j < k; j++) {
            long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(cs, j));
            if (c < 0 || c >= size) {
                Py_DECREF(cs);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad native cell");
                goto fail;
            }
            e->natd[tot++] = (int)c;
            deg[c]++;
        }
        Py_DECREF(cs);
        for (; lo <= hi; lo++) (*dropped)[lo] = 1;
    }
    e->nnat = (int)nn;
    for (i = 0; i < size; i++) e->nocstart[i + 1] = e->nocstart[i] + deg[i];
    e->noclist = (int *)malloc(sizeof(int) * ((size_t)e->nocstart[size] + 1));
    if (!e->noclist) { PyErr_NoMemory(); goto fail; }
    memset(deg, 0, sizeof(int) * ((size_t)size + 1));
    for (i = 0; i < nn; i++) {       /* a native's cells differ (checked in Python) */
        const int *d = e->natd + e->natstart[i];
        int j;
        for (j = 0; j < d[2]; j++) {
            int c = d[3 + j];
            e->noclist[e->nocstart[c] + deg[c]++] = (int)i;
        }
    }
    e->natall = 1;
    e->cmask = (uint64_t *)malloc(sizeof(uint64_t) * ((size_t)size + 1));
    e->vnat = (int *)malloc(sizeof(int) * ((size_t)size * n + 1));
    if (!e->cmask || !e->vnat) { PyErr_NoMemory(); goto fail; }
    for (i = 0; i < size; i++) e->cmask[i] = (n >= 63 ? ~0ULL : (2ULL << n) - 1) & ~1ULL;
    e->vnat[0] = -1;
    for (i = 0; i < size; i++) {
        int g;
        for (g = 1; g <= n; g++)
            e->vnat[i * n + g] = e->nocstart[i] < e->nocstart[i + 1] ? (int)i : -1;
    }
    free(deg);
    Py_DECREF(seq);
    return 0;
fail:
    free(deg);
    free(*dropped);
    *dropped = NULL;
    Py_DECREF(seq);
    return -1;
}

/* the stream without the clauses holding a dropped variable (a native's states) */
static void drop_clauses(Stream *st, const unsigned char *dropped) {
    Py_ssize_t sp = 0, w = 0;
    while (sp < st->n) {
        int len = st->a[sp] >> 1, k, keep = 1;
        for (k = 0; k < len; k++) {
            int x = st->a[sp + 1 + k];
            if (dropped[x < 0 ? -x : x]) { keep = 0; break; }
        }
        if (keep) {
            if (w != sp) memmove(st->a + w, st->a + sp, sizeof(int) * (size_t)(len + 1));
            w += len + 1;
        }
        sp += len + 1;
    }
    st->n = w;
}

static int Enumerator_init(Enumerator *e, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"nvars", "n", "size", "clauses", "cap", "keep", "probe",
                             "probe_after", "branch", "cand", "houses", "lookahead", "groups",
                             "probe_yield", "pause", "pause_nodes", "pause_pace", "resort",
                             "intersect", "ixnode", "first_walk", "first_check",
                             "first_pace", "first_shrink", "first_again", "again_check",
                             "again_pace", "natives", "natk", "yield_from",
                             "again_found", "hskip", "pause_found", "again_none", "nodrop", NULL};
    int nvars, n, size, cap = 0, keep = 0, probe_depth = 0, branch = 0, lookahead = 0;
    int groups = 1, probe_yield = 0, pause = 0, pause_pace = 0, resort = 0, intersect = 0;
    int ixnode = 0, first_pace = 0, first_shrink = 1000, first_again = 0, again_pace = 0;
    int natk = 0, yield_from = 2, again_found = 0, hskip = 0, pause_found = 0, again_none = 0;
    int nodrop = 0;
    long long pause_nodes = 0, first_walk = 0, first_check = 0, again_check = 0;
    unsigned char *fl = NULL;        /* per stream position: mark_groups */
    unsigned char *geo = NULL;       /* per native group: exactly one */
    int *degg = NULL;
    Py_ssize_t ngmax = 0, gtotal = 0;
    long long probe_after = 0;
    PyObject *clauses, *seq = NULL, *cand = Py_None, *houses = Py_None, *natives = Py_None;
    unsigned char *dropped = NULL;   /* per variable: a native's state (natives=) */
    Py_ssize_t nc = 0, i, total = 0, totb = 0, tota = 0, npairs = 0, sp;
    Stream st = {NULL, 0, 0};
    int *tmp = NULL, tmpcap = 0;
    int *units = NULL, nunits = 0, empty = 0;
    int *stamp = NULL;
    int *pairs = NULL, *degb = NULL, *degw = NULL, *dego = NULL;
    if (e->lval) { PyErr_SetString(PyExc_RuntimeError, "Enumerator already initialised"); return -1; }
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iiiO|ipiLiOOppiiLiiipLLiiiLiOiipippp", kwlist, &nvars, &n,
                                     &size, &clauses, &cap, &keep, &probe_depth, &probe_after,
                                     &branch, &cand, &houses, &lookahead, &groups,
                                     &probe_yield, &pause, &pause_nodes, &pause_pace, &resort,
                                     &intersect, &ixnode, &first_walk, &first_check,
                                     &first_pace, &first_shrink, &first_again, &again_check,
                                     &again_pace, &natives, &natk, &yield_from,
                                     &again_found, &hskip, &pause_found, &again_none, &nodrop))
        return -1;
    if (branch < 0 || branch > 1) {
        PyErr_SetString(PyExc_ValueError, "branch must be 0 or 1");
        return -1;
    }
    e->branch = branch;
    e->lookahead = lookahead;
    e->probe_yield = probe_yield;
    e->yield_from = yield_from;
    e->pause = pause_nodes > 0 ? pause : 0;
    e->pause_nodes = pause_nodes;
    e->pause_pace = pause_pace;
    e->resort = resort;
    e->fw_nodes = first_walk;
    e->fw_check = first_check;
    e->fw_pace = first_pace;
    e->fw_shrink = first_shrink;
    e->fw_again = first_again;
    e->fw_check2 = again_check;
    e->fw_none = again_none;
    e->fw_pace2 = again_pace;
    e->fw_found_on = again_found;
    e->pz_found_on = pause_found;
    e->fw_left = -1.0;
    /* the first walk: only where the root is probed before any walk */
    e->fw_state = first_walk > 0 && probe_depth > 0 && probe_after == 0 ? 0 : 2;
    if (n < 1 || n > 64 || size < 1 || size > 4096 || (long long)size * n > nvars ||
        nvars > 50000000 || cap < 0 || probe_depth < 0 || probe_yield < 0 ||
        probe_after < 0 || pause < 0 || pause_nodes < 0 || pause_pace < 0 ||
        intersect < 0 || first_walk < 0 || first_check < 0 || first_pace < 0 ||
        first_shrink < 0 || first_again < 0 || again_check < 0 || again_pace < 0 ||
        yield_from < 1 || hskip < 0) {
        PyErr_SetString(PyExc_ValueError, "bad sizes");
        return -1;
    }
    if (clauses == Py_None) {
        if (cand == Py_None || houses == Py_None || nvars != size * n + n) {
            PyErr_SetString(PyExc_ValueError,
                            "without clauses: cand, houses and nvars = size * n + n expected");
            return -1;
        }
        if (stream_from_houses(&st, n, size, cand, houses) < 0) goto fail;
    } else {
        seq = PySequence_Fast(clauses, "clauses must be a sequence");
        if (!seq) return -1;
        if (stream_from_seq(&st, seq, nvars) < 0) goto fail;
        Py_CLEAR(seq);
        if (natives != Py_None) {
            if (read_natives(e, natives, nvars, n, size, &dropped) < 0) goto fail;
            if (!nodrop) drop_clauses(&st, dropped);
            free(dropped);
            dropped = NULL;
        }
    }
    e->nvars = nvars; e->n = n; e->size = size; e->nprim = size * n;
    e->nlits = 2 * (nvars + 1);
    e->cap = cap; e->keep = keep; e->probe_depth = probe_depth;
    e->gpsnap_pos = -1;
    e->probe_after = probe_depth > 0 ? probe_after : 0;
    e->lval = (signed char *)calloc((size_t)e->nlits, 1);
    e->ll = (LitLists *)calloc((size_t)e->nlits, sizeof(LitLists));
    e->occ = (IntVec *)calloc((size_t)e->nprim + 1, sizeof(IntVec));
    e->trail = (int *)malloc(sizeof(int) * ((size_t)nvars + 1));
    e->lim = (int *)calloc((size_t)nvars + 2, sizeof(int));
    e->dec = (int *)calloc((size_t)nvars + 2, sizeof(int));
    e->flipped = (signed char *)calloc((size_t)nvars + 2, 1);
    e->pdone = (signed char *)calloc((size_t)nvars + 2, 1);
    e->pmark = (int *)calloc((size_t)e->nprim + 1, sizeof(int));
    e->pmepoch = (int *)calloc((size_t)e->nprim + 1, sizeof(int));
    e->cellok = (int *)malloc(sizeof(int) * (size_t)size);
    e->porder = (int *)calloc(2 * (size_t)size + (size_t)n + 2, sizeof(int));
    e->cellvar = (int *)calloc((size_t)size, sizeof(int));
    e->counts = (uint32_t *)calloc((size_t)e->nprim + 1, sizeof(uint32_t));
    e->seen = (unsigned char *)calloc((size_t)e->nprim + 1, 1);
    stamp = (int *)calloc((size_t)e->nlits, sizeof(int));
    if (!stamp || !e->lval || !e->ll || !e->occ || !e->trail || !e->lim || !e->dec ||
        !e->flipped || !e->pdone || !e->pmark || !e->porder || !e->cellvar || !e->counts || !e->seen ||
        !e->pmepoch || !e->cellok)
        goto nomem;
    if (lookahead && probe_depth > 0) {
        e->cellcl = (unsigned char *)calloc((size_t)size, 1);
        e->lastamp = (int *)calloc((size_t)e->nlits, sizeof(int));
        e->lacnt = (int *)calloc((size_t)e->nlits, sizeof(int));
        e->labuf = (int *)malloc(sizeof(int) * ((size_t)nvars + 1));
        if (!e->cellcl || !e->lastamp || !e->lacnt || !e->labuf) goto nomem;
    } else {
        e->lookahead = 0;
    }
    if (groups) {
        fl = (unsigned char *)calloc((size_t)st.n + 1, 1);
        if (!fl) goto nomem;
        if (mark_groups(&st, fl, stamp) == 0) { free(fl); fl = NULL; }
        memset(stamp, 0, sizeof(int) * (size_t)e->nlits);
    }
    /* first pass: measure (a group is "at most one": a clause (-a, -b) for each pair of
       its literals, or a native group) */
    for (sp = 0; sp < st.n;) {
        int len = st.a[sp] >> 1, group = st.a[sp] & 1, k;
        int allprim = 1, posaux = 0, negs = 0;
        const int *lits = st.a + sp + 1;
        if (fl && (fl[sp] & 1)) {
            ngmax++;
            gtotal += len;
            sp += 1 + len;
            nc++;
            continue;
        }
        sp += 1 + len;
        nc++;
        for (k = 0; k < len; k++) {
            int x = lits[k];
            if (x < 0 || x > e->nprim) allprim = 0;
            if (x > e->nprim) posaux = 1;
            if (x < 0) negs = 1;
        }
        if (group) {
            Py_ssize_t pp = (Py_ssize_t)len * (len - 1) / 2;
            npairs += pp;
            if (negs) { totb += 2 * pp; tota += 3 * pp; }
            continue;
        }
        if (len >= 3) total += len + 1;
        if (len >= 2 && allprim) totb += len;
        if (posaux) tota += len + 1;
    }
    if (npairs > 400000000) { PyErr_SetString(PyExc_ValueError, "too many pairs"); goto fail; }
    units = (int *)malloc(sizeof(int) * ((size_t)nc + (size_t)npairs + 1));
    e->clit = (int *)malloc(sizeof(int) * ((size_t)total + 1));
    e->nclit = (int)total + 1;
    e->cstart = (int *)malloc(sizeof(int) * ((size_t)nc + 1));
    e->bclit = (int *)malloc(sizeof(int) * ((size_t)totb + 1));
    e->bcstart = (int *)malloc(sizeof(int) * ((size_t)nc + (size_t)npairs + 1));
    e->bclen = (int *)malloc(sizeof(int) * ((size_t)nc + (size_t)npairs + 1));
    e->aux = (int *)malloc(sizeof(int) * ((size_t)tota + 1));
    if (!units || !e->clit || !e->cstart || !e->bclit || !e->bcstart || !e->bclen ||
        !e->aux)
        goto nomem;
    {
        Fill f;
        int sid = 0;
        memset(&f, 0, sizeof f);
        f.units = units;
        pairs = (int *)malloc(sizeof(int) * 2 * ((size_t)nc + (size_t)npairs + 1));
        degb = (int *)calloc((size_t)e->nlits, sizeof(int));
        degw = (int *)calloc((size_t)e->nlits, sizeof(int));
        dego = (int *)calloc((size_t)e->nprim + 1, sizeof(int));
        if (!pairs || !degb || !degw || !dego) goto nomem;
        f.pairs = pairs; f.degb = degb; f.degw = degw; f.dego = dego;
        if (ngmax) {
            e->gstart = (int *)malloc(sizeof(int) * ((size_t)ngmax + 1));
            e->glit = (int *)malloc(sizeof(int) * ((size_t)gtotal + 1));
            e->gopen = (uint64_t *)malloc(sizeof(uint64_t) * ((size_t)ngmax + 1));
            geo = (unsigned char *)malloc((size_t)ngmax + 1);
            degg = (int *)calloc((size_t)e->nlits, sizeof(int));
            if (!e->gstart || !e->glit || !e->gopen || !geo || !degg) goto nomem;
        }
        for (sp = 0; sp < st.n;) {
            int len = st.a[sp] >> 1, group = st.a[sp] & 1, k, m = 0;
            const int *lits = st.a + sp + 1;
            int taut = 0;
            Py_ssize_t sp0 = sp;
            sp += 1 + len;
            if (fl && (fl[sp0] & 1)) {  /* a native group */
                int g = e->ngroups++, at = g ? e->gstart[g] : 0;
                e->gstart[g] = at;
                for (k = 0; k < len; k++) {
                    int li = lit_index(lits[k]);
                    e->glit[at + k] = li;
                    degg[li]++;
                }
                e->gstart[g + 1] = at + len;
                geo[g] = (fl[sp0] & 2) != 0;
                e->gopen[g] = (1ULL << len) - 1;
                continue;
            }
            if (len > tmpcap) {
                int *nt = (int *)realloc(tmp, sizeof(int) * (size_t)(len + 1));
                if (!nt) goto nomem;
                tmp = nt; tmpcap = len;
            }
            if (group) {
                int a, b2;
                for (k = 0; k < len; k++)   /* the negations: the pairs' literals */
                    tmp[k] = lit_index(lits[k]) ^ 1;
                for (a = 0; a < len; a++) {
                    for (b2 = a + 1; b2 < len; b2++) {
                        int pair[2];
                        pair[0] = tmp[a];
                        pair[1] = tmp[b2];
                        if (pair[0] == (pair[1] ^ 1)) continue;          /* tautology */
                        if (insert_clause(e, pair, pair[0] == pair[1] ? 1 : 2, &f, 0) < 0)
                            goto nomem;
                    }
                }
                continue;
            }
            sid++;
            for (k = 0; k < len; k++) {
                int li = lit_index(lits[k]);
                /* stamp[l] == sid: l is in this clause already */
                if (stamp[li ^ 1] == sid) taut = 1;
                if (stamp[li] != sid) { stamp[li] = sid; tmp[m++] = li; }
            }
            if (taut) continue;
            if (insert_clause(e, tmp, m, &f, fl && (fl[sp0] & 4)) < 0) goto nomem;
        }
        nunits = f.nunits;
        empty = f.empty;
        /* the lists, in the order the clauses came (as pushing each as it came did) */
        e->bins_arena = vec_arena(&e->ll[0].bins, LL_STRIDE, degb, e->nlits);
        e->watch_arena = vec_arena(&e->ll[0].watch, LL_STRIDE, degw, e->nlits);
        e->occ_arena = vec_arena(e->occ, 1, dego, (Py_ssize_t)e->nprim + 1);
        if (!e->bins_arena || !e->watch_arena || !e->occ_arena) goto nomem;
        if (e->ngroups) {
            int g;
            e->gocc_arena = vec_arena(&e->ll[0].gocc, LL_STRIDE, degg, e->nlits);
            if (!e->gocc_arena) goto nomem;
            for (g = 0; g < e->ngroups; g++) {
                int k;
                for (k = e->gstart[g]; k < e->gstart[g + 1]; k++) {
                    IntVec *o = &e->ll[e->glit[k]].gocc;
                    o->a[o->n++] = g << 7 | geo[g] << 6 | (k - e->gstart[g]);
                }
            }
        }
        for (i = 0; i < f.npairs; i++) {
            int a = pairs[2 * i], b = pairs[2 * i + 1];
            e->ll[a].bins.a[e->ll[a].bins.n++] = b;
            e->ll[b].bins.a[e->ll[b].bins.n++] = a;
        }
        for (i = 0; i < e->nclauses; i++) {
            const int *c = e->clit + e->cstart[i];
            e->ll[c[0]].watch.a[e->ll[c[0]].watch.n++] = e->cstart[i];
            e->ll[c[1]].watch.a[e->ll[c[1]].watch.n++] = e->cstart[i];
        }
        for (i = 0; i < e->nbc; i++) {
            Py_ssize_t k;
            for (k = 0; k < e->bclen[i]; k++) {
                int var = e->bclit[e->bcstart[i] + k];
                e->occ[var].a[e->occ[var].n++] = (int)i;
            }
        }
    }
    e->bcnf = (int *)malloc(sizeof(int) * ((size_t)e->nbc + 1));
    e->bctc = (int *)calloc((size_t)e->nbc + 1, sizeof(int));
    e->bcw = (int *)malloc(sizeof(int) * ((size_t)e->nbc + 1));
    if (!e->bcnf || !e->bctc || !e->bcw) goto nomem;
    for (i = 0; i < e->nbc; i++) { e->bcnf[i] = e->bclen[i]; e->bcw[i] = 1; }
    if (e->branch && mark_cell_clauses(e) < 0) goto nomem;
    if (e->lookahead)                  /* the cells with a clause of their own digits */
        for (i = 0; i < e->nbc; i++) {
            const int *vs = e->bclit + e->bcstart[i];
            int c0 = (vs[0] - 1) / n, same = 1;
            Py_ssize_t k;
            for (k = 1; k < e->bclen[i] && same; k++) same = (vs[k] - 1) / n == c0;
            if (same) e->cellcl[c0] = 1;
        }
    e->unseen = e->nprim;
    memset(e->cellok, 0xff, sizeof(int) * (size_t)size);
    /* the root: unit clauses (a conflict there, or an empty clause: no solution) */
    for (i = 0; i < nunits && !empty; i++) {
        int l = units[i];
        if (e->lval[l] == -1) empty = 1;
        else if (e->lval[l] == 0) assign(e, l);
    }
    e->intersect = intersect;       /* checked with the sizes above */
    e->natk = e->nnat && natk > 0 ? natk : 0x7fffffff;
    e->ixnode = ixnode;
    if (hskip > 0 && clauses != Py_None) {
        /* the house-only cells: each candidate literal (either sign) in no binary clause,
           no long clause, no native, and in no more groups than the fewest any candidate
           is in (its cell's and its houses') */
        int gmin = 0x7fffffff, v, rules = 0;
        e->hcell = (unsigned char *)malloc((size_t)size);
        if (!e->hcell) goto nomem;
        for (v = 1; v <= e->nprim; v++)
            if (e->ngroups && e->lval[2 * v] == 0 && e->ll[2 * v].gocc.n < gmin)
                gmin = e->ll[2 * v].gocc.n;
        memset(e->hcell, 1, (size_t)size);
        for (v = 1; v <= e->nprim; v++) {
            int l;
            if (e->lval[2 * v] != 0) continue;
            for (l = 2 * v; l <= 2 * v + 1; l++) {
                if (e->ll[l].bins.cap || e->ll[l].watch.cap) rules = 1;
                if (e->ll[l].bins.cap || e->ll[l].watch.cap ||
                    (e->ngroups && e->ll[l].gocc.n > (l & 1 ? 0 : gmin)))
                    e->hcell[(v - 1) / n] = 0;
            }
            if (e->vnat && e->vnat[v] >= 0) {
                e->hcell[(v - 1) / n] = 0;
                rules = 1;
            }
        }
        /* a model of "at most one" groups alone (all-different rules: the kernel's own
           house encoding, houses=, has no pass-over) probes every cell */
        e->hskip = rules ? hskip : 0;
    }

    if (empty) e->finished = 1;
    free(units); free(tmp); free(stamp); free(pairs); free(degb); free(degw); free(dego);
    free(st.a); free(fl); free(geo); free(degg);
    return 0;
nomem:
    PyErr_NoMemory();
fail:
    free(units); free(tmp); free(stamp); free(pairs); free(degb); free(degw); free(dego);
    free(st.a); free(fl); free(geo); free(degg);
    e->ngroups = 0;
    Py_XDECREF(seq);
    e->gave_up = 1;
    return -1;
}

static PyObject *Enumerator_run(Enumerator *e, PyObject *args) {
    long long nodes, props, stop_at = 0;
    int r;
    if (!e->lval) { PyErr_SetString(PyExc_RuntimeError, "Enumerator not initialised"); return NULL; }
    if (!PyArg_ParseTuple(args, "LL|L", &nodes, &props, &stop_at)) return NULL;
    if (nodes < 0 || props < 0) { PyErr_SetString(PyExc_ValueError, "negative budget"); return NULL; }
    r = search(e, nodes, props, stop_at);
    if (r < 0) { e->gave_up = 1; return NULL; }
    return PyLong_FromLong(r);
}

/* counts(): a list of size*n + n + 1 ints, index cell*n + digit (the layout of
   csp.solutions.CandidateCounts.counts) */
static PyObject *Enumerator_counts(Enumerator *e, PyObject *Py_UNUSED(ignored)) {
    Py_ssize_t m = (Py_ssize_t)e->nprim + e->n + 1, i;
    PyObject *out;
    if (!e->lval) { PyErr_SetString(PyExc_RuntimeError, "Enumerator not initialised"); return NULL; }
    out = PyList_New(m);
    if (!out) return NULL;
    for (i = 0; i < m; i++) {
        PyObject *x = PyLong_FromUnsignedLong(i <= e->nprim ? e->counts[i] : 0);
        if (!x) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}

static PyObject *digits_list(const int *d, int size) {
    PyObject *out = PyList_New(size);
    int c;
    if (!out) return NULL;
    for (c = 0; c < size; c++) {
        PyObject *x = PyLong_FromLong(d[c]);
        if (!x) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, c, x);
    }
    return out;
}

/* take(): the buffered solutions (lists of digits), emptying the buffer */
static PyObject *Enumerator_take(Enumerator *e, PyObject *Py_UNUSED(ignored)) {
    int k, m;
    PyObject *out;
    if (!e->lval) { PyErr_SetString(PyExc_RuntimeError, "Enumerator not initialised"); return NULL; }
    m = e->sols.n / e->size;
    out = PyList_New(m);
    if (!out) return NULL;
    for (k = 0; k < m; k++) {
        PyObject *s = digits_list(e->sols.a + (size_t)k * e->size, e->size);
        if (!s) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, k, s);
    }
    e->sols.n = 0;
    return out;
}

static PyObject *Enumerator_get_first(Enumerator *e, void *Py_UNUSED(c)) {
    if (!e->first) Py_RETURN_NONE;
    return digits_list(e->first, e->size);
}

static PyObject *get_ll(long long x) { return PyLong_FromLongLong(x); }
static PyObject *Enumerator_get_found(Enumerator *e, void *c) { (void)c; return get_ll(e->found); }
static PyObject *Enumerator_get_nodes(Enumerator *e, void *c) { (void)c; return get_ll(e->nodes); }
static PyObject *Enumerator_get_props(Enumerator *e, void *c) { (void)c; return get_ll(e->props); }
static PyObject *Enumerator_get_probed(Enumerator *e, void *c) { (void)c; return get_ll(e->probed); }
static PyObject *Enumerator_get_implied(Enumerator *e, void *c) { (void)c; return get_ll(e->implied); }
static PyObject *Enumerator_get_pskipped(Enumerator *e, void *c) { (void)c; return get_ll(e->pskipped); }
static PyObject *Enumerator_get_natruns(Enumerator *e, void *c) { (void)c; return get_ll(e->natruns); }
static PyObject *Enumerator_get_crossed(Enumerator *e, void *c) { (void)c; return get_ll(e->crossed); }
static PyObject *Enumerator_get_hskipped(Enumerator *e, void *c) { (void)c; return get_ll(e->hskipped); }
static PyObject *Enumerator_get_gain_at(Enumerator *e, void *c) { (void)c; return get_ll(e->gain_at); }

/* root(): the literals set at the root (level 0) as they stand, variables signed
   (v true, -v false), in the order they were set: after probing, what it found */
static PyObject *Enumerator_root(Enumerator *e, PyObject *Py_UNUSED(ignored)) {
    int m, i;
    PyObject *out;
    if (!e->lval) { PyErr_SetString(PyExc_RuntimeError, "Enumerator not initialised"); return NULL; }
    m = e->level > 0 ? e->lim[1] : e->trail_n;
    out = PyList_New(m);
    if (!out) return NULL;
    for (i = 0; i < m; i++) {
        int l = e->trail[i];
        PyObject *x = PyLong_FromLong(l & 1 ? -(l >> 1) : (l >> 1));
        if (!x) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}

/* tracked: the branching clauses whose counters each assignment keeps up to date, summed
   over the candidate variables (branch 1: the cells' only, mark_cell_clauses) */
static PyObject *Enumerator_get_tracked(Enumerator *e, void *c) {
    long long t = 0;
    int v;
    (void)c;
    if (e->occ) for (v = 1; v <= e->nprim; v++) t += e->occ[v].n;
    return get_ll(t);
}

/* progress: the share of the search tree the walk has left behind it, each decision's
   first branch counted as half of its subtree (the sum over the levels L whose first
   branch is done of 2^-L; 1.0 once the walk is over). A rough measure (propagation
   makes the branches uneven) that the caller reads as "how far the walk is", to give a
   walk near its end the decisions it still needs. */
static PyObject *Enumerator_get_progress(Enumerator *e, void *Py_UNUSED(c)) {
    if (!e->lval) { PyErr_SetString(PyExc_RuntimeError, "Enumerator not initialised"); return NULL; }
    return PyFloat_FromDouble(tree_walked(e));
}

static PyMethodDef Enumerator_methods[] = {
    {"run", (PyCFunction)Enumerator_run, METH_VARARGS,
     "run(nodes, props, stop_at=0) -> 0 done, 1 paused (budget used), 2 stopped (stop_at "
     "solutions found), 3 gave up (the leaf check failed: use a SAT solver)"},
    {"counts", (PyCFunction)Enumerator_counts, METH_NOARGS, "per candidate variable: solutions holding it"},
    {"take", (PyCFunction)Enumerator_take, METH_NOARGS, "the buffered solutions (keep=True), emptied"},
    {"root", (PyCFunction)Enumerator_root, METH_NOARGS, "the literals set at the root (signed variables)"},
    {NULL, NULL, 0, NULL}
};

static PyGetSetDef Enumerator_getset[] = {
    {"crossed", (getter)Enumerator_get_crossed, NULL, NULL, NULL},
    {"hskipped", (getter)Enumerator_get_hskipped, NULL, "house-only cells the root's first sweep passed over (hskip=)", NULL},
    {"gain_at", (getter)Enumerator_get_gain_at, NULL, "decisions made when a solution last raised a count below the cap (or the walk restarted)", NULL},
    {"natruns", (getter)Enumerator_get_natruns, NULL, "natives' runs (natives=)", NULL},
    {"first", (getter)Enumerator_get_first, NULL, "the first solution found (digits), or None", NULL},
    {"found", (getter)Enumerator_get_found, NULL, "solutions found", NULL},
    {"nodes", (getter)Enumerator_get_nodes, NULL, "decisions made", NULL},
    {"props", (getter)Enumerator_get_props, NULL, "literals propagated", NULL},
    {"probed", (getter)Enumerator_get_probed, NULL, "candidates probed (failed-literal probing)", NULL},
    {"implied", (getter)Enumerator_get_implied, NULL, "literals a cell's probes set together (lookahead)", NULL},
    {"pskipped", (getter)Enumerator_get_pskipped, NULL, "cells probing passed over: nothing changed since their digits were seen not to fail", NULL},
    {"tracked", (getter)Enumerator_get_tracked, NULL,
     "occurrences of the candidate variables in the branching clauses the walk keeps counters of", NULL},
    {"progress", (getter)Enumerator_get_progress, NULL,
     "the share of the tree walked (each first branch half its subtree; rough)", NULL},
    {NULL, NULL, NULL, NULL, NULL}
};

static PyTypeObject EnumeratorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "csp._enum_kernel.Enumerator",
    .tp_basicsize = sizeof(Enumerator),
    .tp_dealloc = (destructor)Enumerator_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Every model of a CNF over candidate variables, by DPLL without learning.",
    .tp_methods = Enumerator_methods,
    .tp_getset = Enumerator_getset,
    .tp_init = (initproc)Enumerator_init,
    .tp_new = PyType_GenericNew,
};


/* ---------------------------------------------------------------------------------------
 * The depth-first search of models made only of all-different houses (csp/search.py
 * _search_bitboards, _root, _settle, _choose): the same propagation (naked and hidden
 * singles to fixpoint, in the same order), the same branching cell, the same node count,
 * node limit and deadline reads (the budget's `exhausted` every 256 nodes), so the same
 * solutions in the same order, and the same limits hit at the same node. Grids of at most
 * 128 cells (an unsigned __int128 cell set) and 62 digits, at most 8 houses per cell.
 * bb_tables(...) packs csp.engine.BitboardTables into a capsule once per layout;
 * bb_search(tables, cand, P, solved, limit, node_limit, budget) searches.
 * ------------------------------------------------------------------------------------- */
typedef unsigned __int128 U128;
#define BB_MAXH 8

typedef struct {
    int n, size, nh;
    U128 full;
    U128 *peers;        /* size */
    U128 *houses;       /* nh */
    int *nhome;         /* size */
    int *home;          /* size * BB_MAXH: house indices of a cell, in home[c] order */
    unsigned char *other; /* size * size: bit k: home[p][k] does not hold c */
    int npairs;         /* houses meeting in two cells or more (locked candidates) */
    U128 *pin, *pa, *pb; /* npairs: where they meet, the rest of the one, of the other */
    int pw;             /* words of a set of pairs: npairs / 64, up */
    uint64_t *cpairs;   /* size * pw: the pairs of a cell's houses */
} BBTables;
/* the most words a set of pairs takes: two houses of a pair share two cells or more, of
 * at most 128 cells each in at most BB_MAXH houses, so at most 128 * 28 / 2 pairs */
#define BB_PW ((128 * (BB_MAXH * (BB_MAXH - 1) / 2) / 2 + 63) / 64)

static void bb_free(PyObject *cap) {
    BBTables *t = (BBTables *)PyCapsule_GetPointer(cap, "csp.bb_tables");
    if (!t) return;
    free(t->peers); free(t->houses); free(t->nhome); free(t->home); free(t->other);
    free(t->pin); free(t->pa); free(t->pb); free(t->cpairs);
    free(t);
}

static int bb_u128(PyObject *o, U128 *out) {
    /* a non-negative Python int below 2**128 */
    if (!PyLong_Check(o)) { PyErr_SetString(PyExc_TypeError, "bitboard: int expected"); return -1; }
    if (_PyLong_Sign(o) < 0) { PyErr_SetString(PyExc_ValueError, "bitboard: negative"); return -1; }
    if (_PyLong_NumBits(o) > 128) { PyErr_SetString(PyExc_OverflowError, "bitboard: over 128 bits"); return -1; }
    unsigned char buf[16];
    if (_PyLong_AsByteArray((PyLongObject *)o, buf, 16, 1, 0) < 0) return -1;
    U128 x = 0;
    for (int i = 15; i >= 0; i--) x = (x << 8) | buf[i];
    *out = x;
    return 0;
}

static inline int bb_ctz(U128 x) {
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}
static inline int bb_pop(U128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
static inline int bb_hib(uint64_t m) { return m ? 63 - __builtin_clzll(m) : -1; }

/* bb_tables(n, size, full, peers, houses, home): home[c] a sequence of house bitsets
 * (each one of `houses`) */
static PyObject *bb_tables(PyObject *self, PyObject *args) {
    int n, size;
    PyObject *full, *peers, *houses, *home;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiOOOO", &n, &size, &full, &peers, &houses, &home)) return NULL;
    if (n < 1 || n > 62 || size < 1 || size > 128) Py_RETURN_NONE;
    if (!PyList_Check(peers) || !PyList_Check(houses) || !PyList_Check(home)
        || PyList_GET_SIZE(peers) != size || PyList_GET_SIZE(home) != size) {
        PyErr_SetString(PyExc_TypeError, "bb_tables: lists of the grid's size expected");
        return NULL;
    }
    BBTables *t = (BBTables *)calloc(1, sizeof(BBTables));
    if (!t) return PyErr_NoMemory();
    t->n = n; t->size = size; t->nh = (int)PyList_GET_SIZE(houses);
    t->peers = (U128 *)calloc((size_t)size, sizeof(U128));
    t->houses = (U128 *)calloc((size_t)(t->nh ? t->nh : 1), sizeof(U128));
    t->nhome = (int *)calloc((size_t)size, sizeof(int));
    t->home = (int *)calloc((size_t)size * BB_MAXH, sizeof(int));
    t->other = (unsigned char *)calloc((size_t)size * (size_t)size, 1);
    PyObject *cap = NULL;
    if (!t->peers || !t->houses || !t->nhome || !t->home || !t->other) { PyErr_NoMemory(); goto fail; }
    if (bb_u128(full, &t->full) < 0) goto fail;
    for (int i = 0; i < t->nh; i++)
        if (bb_u128(PyList_GET_ITEM(houses, i), &t->houses[i]) < 0) goto fail;
    for (int c = 0; c < size; c++) {
        if (bb_u128(PyList_GET_ITEM(peers, c), &t->peers[c]) < 0) goto fail;
        PyObject *hs = PySequence_Fast(PyList_GET_ITEM(home, c), "bb_tables: home[c]");
        if (!hs) goto fail;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(hs);
        if (k > BB_MAXH) { Py_DECREF(hs); free(t->peers); free(t->houses); free(t->nhome);
                           free(t->home); free(t->other); free(t); Py_RETURN_NONE; }
        t->nhome[c] = (int)k;
        for (Py_ssize_t j = 0; j < k; j++) {
            U128 h;
            if (bb_u128(PySequence_Fast_GET_ITEM(hs, j), &h) < 0) { Py_DECREF(hs); goto fail; }
            int idx = -1;
            for (int i = 0; i < t->nh; i++) if (t->houses[i] == h) { idx = i; break; }
            if (idx < 0) { Py_DECREF(hs); PyErr_SetString(PyExc_ValueError, "bb_tables: unknown house"); goto fail; }
            t->home[c * BB_MAXH + j] = idx;
        }
        Py_DECREF(hs);
    }
    for (int c = 0; c < size; c++)
        for (int p = 0; p < size; p++) {
            unsigned char m = 0;
            for (int k = 0; k < t->nhome[p]; k++)
                if (!((t->houses[t->home[p * BB_MAXH + k]] >> c) & 1)) m |= (unsigned char)(1u << k);
            t->other[c * size + p] = m;
        }
    {   /* the pairs of houses meeting in two cells or more (csp.engine's `pairs` order),
           and each house's pairs as a set of pair indices (bb_locked) */
        int np_ = 0;
        size_t most = (size_t)t->nh * (size_t)(t->nh > 1 ? t->nh - 1 : 1) / 2 + 1;
        t->pin = (U128 *)malloc(sizeof(U128) * most);
        t->pa = (U128 *)malloc(sizeof(U128) * most);
        t->pb = (U128 *)malloc(sizeof(U128) * most);
        int *ph = (int *)malloc(sizeof(int) * 2 * most);
        if (!t->pin || !t->pa || !t->pb || !ph) { free(ph); PyErr_NoMemory(); goto fail; }
        for (int i = 0; i < t->nh; i++)
            for (int j = i + 1; j < t->nh; j++) {
                U128 x = t->houses[i] & t->houses[j];
                if (!(x & (x - 1))) continue;
                t->pin[np_] = x; t->pa[np_] = t->houses[i] & ~x; t->pb[np_] = t->houses[j] & ~x;
                ph[2 * np_] = i; ph[2 * np_ + 1] = j;
                np_++;
            }
        t->npairs = np_;
        t->pw = (np_ + 63) / 64;
        if (t->pw) {
            t->cpairs = (uint64_t *)calloc((size_t)size * (size_t)t->pw, sizeof(uint64_t));
            if (!t->cpairs) { free(ph); PyErr_NoMemory(); goto fail; }
            for (int k = 0; k < np_; k++)
                for (int c = 0; c < size; c++)
                    if (((t->houses[ph[2 * k]] | t->houses[ph[2 * k + 1]]) >> c) & 1)
                        t->cpairs[(size_t)c * t->pw + k / 64] |= (uint64_t)1 << (k % 64);
        }
        free(ph);
    }
    cap = PyCapsule_New(t, "csp.bb_tables", bb_free);
    if (!cap) goto fail;
    return cap;
fail:
    free(t->peers); free(t->houses); free(t->nhome); free(t->home); free(t->other);
    free(t->pin); free(t->pa); free(t->pb); free(t->cpairs); free(t);
    return NULL;
}

typedef struct { int c, d; } BBPair;

/* _settle: place the todo pairs, singles to fixpoint; the new placed set, or -1 (as ok=0) */
static int bb_settle(const BBTables *T, U128 *P, uint64_t *C, U128 *solved_io,
                     BBPair *todo, int ntodo, int cap) {
    U128 solved = *solved_io, queued = solved;
    const int size = T->size;
    while (ntodo) {
        BBPair pr = todo[--ntodo];
        int c = pr.c, d = pr.d;
        U128 bit = (U128)1 << c;
        uint64_t dbit = (uint64_t)1 << d;
        uint64_t m = C[c];
        if (!(m & dbit)) return 0;
        if (solved & bit) continue;
        solved |= bit;
        if (m != dbit) {
            C[c] = dbit;
            m ^= dbit;
            const int *hc = T->home + c * BB_MAXH;
            int nh = T->nhome[c];
            while (m) {
                uint64_t low = m & (~m + 1);
                m ^= low;
                int e = __builtin_ctzll(low);
                U128 pe = P[e] ^ bit;
                P[e] = pe;
                for (int k = 0; k < nh; k++) {
                    U128 x = pe & T->houses[hc[k]];
                    if (!(x & (x - 1))) {
                        if (!x) return 0;
                        if (!(x & queued)) {
                            queued |= x;
                            if (ntodo >= cap) return -1;
                            todo[ntodo].c = bb_ctz(x); todo[ntodo].d = e; ntodo++;
                        }
                    }
                }
            }
        }
        U128 pd = P[d];
        U128 rem = pd & T->peers[c];
        if (rem) {
            pd ^= rem;
            P[d] = pd;
            const unsigned char *oc = T->other + (size_t)c * size;
            while (rem) {
                U128 low = rem & (~rem + 1);
                rem ^= low;
                int p = bb_ctz(low);
                uint64_t mp = C[p] ^ dbit;
                if (!(mp & (mp - 1))) {
                    if (!mp) return 0;
                    if (!(queued & low)) {
                        queued |= low;
                        if (ntodo >= cap) return -1;
                        todo[ntodo].c = p; todo[ntodo].d = bb_hib(mp); ntodo++;
                    }
                }
                C[p] = mp;
                unsigned char om = oc[p];
                const int *hp = T->home + p * BB_MAXH;
                for (int k = 0; om; k++, om >>= 1) {
                    if (!(om & 1)) continue;
                    U128 x = pd & T->houses[hp[k]];
                    if (!(x & (x - 1))) {
                        if (!x) return 0;
                        if (!(x & queued)) {
                            queued |= x;
                            if (ntodo >= cap) return -1;
                            todo[ntodo].c = bb_ctz(x); todo[ntodo].d = d; ntodo++;
                        }
                    }
                }
            }
        }
    }
    *solved_io = solved;
    return 1;
}

/* _locked (csp/search.py): locked candidates (when a digit's places in house A all lie
 * where A meets house B, it leaves the rest of B: pointing and claiming) with singles,
 * to fixpoint. `base`: the boards at the last fixpoint (the parent's; all zero: none),
 * where no pair of houses removed anything: a pair can only do so again for a digit whose
 * places changed in one of its two houses, so only those are looked at. The fixpoint is
 * the same whatever the order (every rule only removes, and stays true when more is
 * removed), so the same as the Python pass's. 1, 0 on a contradiction, -1 when the todo
 * list overflows. */
static int bb_locked(const BBTables *T, U128 *P, uint64_t *C, U128 *solved_io,
                     BBPair *todo, int cap, const U128 *base) {
    const int np = T->n + 1, nh = T->nh, pw = T->pw;
    const U128 *pin = T->pin, *pa = T->pa, *pb = T->pb, *houses = T->houses;
    U128 before[64], start[64];
    memcpy(before, base, sizeof(U128) * (size_t)np);
    for (;;) {
        int ntodo = 0, changed = 0;
        const U128 solved = *solved_io;
        memcpy(start, P, sizeof(U128) * (size_t)np);
        for (int d = 1; d < np; d++) {
            U128 pd = P[d];
            const U128 delta = before[d] ^ pd;
            if (!delta) continue;
            U128 gone = 0;
            uint64_t pm[BB_PW];
            for (int w = 0; w < pw; w++) pm[w] = 0;
            for (U128 x = delta; x; x &= x - 1) {     /* the pairs of the houses changed */
                const uint64_t *cp = T->cpairs + (size_t)bb_ctz(x) * pw;
                for (int w = 0; w < pw; w++) pm[w] |= cp[w];
            }
            for (int w = 0; w < pw; w++)
                for (uint64_t m = pm[w]; m; m &= m - 1) {
                    const int i = w * 64 + __builtin_ctzll(m);
                    if (!(pd & pin[i])) continue;
                    U128 a = pd & pa[i], b = pd & pb[i];
                    if (!a) { if (b) { pd ^= b; gone |= b; } }
                    else if (!b) { pd ^= a; gone |= a; }
                }
            if (!gone) continue;
            changed = 1;
            P[d] = pd;
            const uint64_t dbit = (uint64_t)1 << d;
            for (U128 g = gone; g; g &= g - 1) {
                int p = bb_ctz(g);
                uint64_t m = C[p] ^ dbit;
                if (!m) return 0;
                C[p] = m;
                if (!(m & (m - 1))) {
                    if (ntodo >= cap) return -1;
                    todo[ntodo].c = p; todo[ntodo].d = bb_hib(m); ntodo++;
                }
            }
            for (int h = 0; h < nh; h++) {
                U128 x = pd & houses[h];
                if (!(x & (x - 1))) {
                    if (!x) return 0;
                    if (!(x & solved)) {
                        if (ntodo >= cap) return -1;
                        todo[ntodo].c = bb_ctz(x); todo[ntodo].d = d; ntodo++;
                    }
                }
            }
        }
        if (!changed) return 1;
        int r = bb_settle(T, P, C, solved_io, todo, ntodo, cap);
        if (r <= 0) return r;
        memcpy(before, start, sizeof(U128) * (size_t)np);
    }
}

/* _choose */
static int bb_choose(const BBTables *T, const U128 *P, const uint64_t *C, U128 solved,
                     const long long *weight) {
    U128 t1 = 0, t2 = 0, t3 = 0, t4 = 0;
    for (int d = 0; d <= T->n; d++) {
        U128 b = P[d];
        t4 |= t3 & b; t3 |= t2 & b; t2 |= t1 & b; t1 |= b;
    }
    U128 x = t2 & ~t3;
    if (!x) {
        x = t3 & ~t4;
        if (!x) {
            x = T->full & ~solved;
            if (!x) return -1;
            int k = 1000;
            for (int c = 0; c < T->size; c++)
                if ((x >> c) & 1) { int q = __builtin_popcountll(C[c]); if (q < k) k = q; }
            U128 y = 0;
            for (int c = 0; c < T->size; c++)
                if (((x >> c) & 1) && __builtin_popcountll(C[c]) == k) y |= (U128)1 << c;
            x = y;
        }
    }
    U128 open_ = T->full & ~solved, two = t2 & ~t3;
    int best = -1;
    long long bs = -1;
    while (x) {
        U128 low = x & (~x + 1);
        x ^= low;
        int c = bb_ctz(low);
        U128 pc = T->peers[c];
        long long k = (weight[c] << 10) + bb_pop(pc & open_) + bb_pop(pc & two);
        if (k > bs) { bs = k; best = c; }
    }
    return best;
}

typedef struct { U128 solved; int cell; uint64_t rest; } BBFrame;

/* Read a Python list of `size` candidate masks into C: 0 done, -1 an error set (`who`
 * names the caller), 1 a digit outside 1..n (`every`: the caller takes the Python path). */
static int bb_read_masks(PyObject *cand, int size, uint64_t every, uint64_t *C, const char *who) {
    for (int c = 0; c < size; c++) {
        PyObject *o = PyList_GET_ITEM(cand, c);
        if (!PyLong_Check(o)) { PyErr_Format(PyExc_TypeError, "%s: int masks expected", who); return -1; }
        unsigned long long m = PyLong_AsUnsignedLongLong(o);
        if (m == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        if (m & ~every) return 1;
        C[c] = m;
    }
    return 0;
}

/* The deepest frame's next branch: its digit's bit (returned), the frame's index (*parent),
 * cell (*pcell) and placed cells (*s); a frame whose last digit this is, is popped. */
static inline uint64_t bb_next_branch(BBFrame *fr, int *top, int *parent, int *pcell, U128 *s) {
    BBFrame *f = &fr[*top];
    uint64_t low = f->rest & (~f->rest + 1);
    f->rest ^= low;
    *parent = *top; *pcell = f->cell; *s = f->solved;
    if (!f->rest) (*top)--;
    return low;
}

/* Push the child (boards cp, masks cc, placed cells s) as frame `top`, branching on `cell`. */
static inline void bb_push(BBFrame *fr, int top, U128 *Ps, uint64_t *Cs, int np, int size,
                           const U128 *cp, const uint64_t *cc, U128 s, int cell) {
    memcpy(Ps + (size_t)top * np, cp, sizeof(U128) * (size_t)np);
    memcpy(Cs + (size_t)top * size, cc, sizeof(uint64_t) * (size_t)size);
    fr[top].solved = s; fr[top].cell = cell; fr[top].rest = cc[cell];
}

static PyObject *bb_solution(const uint64_t *C, int size) {
    PyObject *s = PyList_New(size);
    if (!s) return NULL;
    for (int c = 0; c < size; c++) {
        PyObject *v = PyLong_FromLong(bb_hib(C[c]));
        if (!v) { Py_DECREF(s); return NULL; }
        PyList_SET_ITEM(s, c, v);
    }
    return s;
}

/* the root of `_root` (csp/search.py), locked candidates with `locked`: from the candidate
   masks C (checked: every digit in 1..n), the per-digit cell sets P, then naked and hidden
   singles to fixpoint (C and P changed, `solved` the placed cells). 0, 3 when the
   candidates contradict, 4 when a table overflows (take the Python path) */
static int bb_root_state(const BBTables *T, U128 *P, uint64_t *C, U128 *solved,
                         BBPair *todo, int todo_cap, int locked) {
    const int size = T->size, np = T->n + 1;
    const uint64_t every = ((uint64_t)1 << (T->n + 1)) - 2;
    int ntodo = 0;
    U128 open_ = 0;
    for (int d = 0; d < np; d++) P[d] = 0;
    for (int c = 0; c < size; c++) {
        uint64_t m = C[c];
        if (m == every) { open_ |= (U128)1 << c; continue; }
        if (!m) return 3;
        if (!(m & (m - 1))) { todo[ntodo].c = c; todo[ntodo].d = bb_hib(m); ntodo++; }
        U128 bit = (U128)1 << c;
        while (m) { uint64_t low = m & (~m + 1); m ^= low; P[__builtin_ctzll(low)] |= bit; }
    }
    if (open_) for (int d = 1; d < np; d++) P[d] |= open_;
    for (int d = 1; d < np; d++) {
        U128 pd = P[d];
        for (int i = 0; i < T->nh; i++) {
            U128 x = pd & T->houses[i];
            if (!(x & (x - 1))) {
                if (!x) return 3;
                if (ntodo >= todo_cap) return 4;
                todo[ntodo].c = bb_ctz(x); todo[ntodo].d = d; ntodo++;
            }
        }
    }
    int r = bb_settle(T, P, C, solved, todo, ntodo, todo_cap);
    if (r > 0 && locked) {
        U128 zero[64] = {0};
        r = bb_locked(T, P, C, solved, todo, todo_cap, zero);
    }
    if (r < 0) return 4;
    return r ? 0 : 3;
}

/* bb_root(tables, cand, locked=False) -> the candidate masks after naked and hidden
 * singles to fixpoint (csp.search.propagate_pure up to 9 digits, where it has no locked
 * candidates), with `locked` locked candidates too (csp.search._root(..., locked=True), the
 * root of bb_counts' walk), None when they contradict, False when the kernel does not
 * take them (a digit out of range, a table overflow: take the Python path) */
static PyObject *bb_root(PyObject *self, PyObject *args) {
    PyObject *cap, *cand, *out = NULL;
    int locked = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO|p", &cap, &cand, &locked)) return NULL;
    BBTables *T = (BBTables *)PyCapsule_GetPointer(cap, "csp.bb_tables");
    if (!T) return NULL;
    const int size = T->size, np = T->n + 1;
    if (!PyList_Check(cand) || PyList_GET_SIZE(cand) != size) {
        PyErr_SetString(PyExc_TypeError, "bb_root: a candidate list of the grid's size expected");
        return NULL;
    }
    const uint64_t every = ((uint64_t)1 << (T->n + 1)) - 2;
    int todo_cap = 2 * size + np * (T->nh + 1) + 8, code = 0;
    U128 P[64], solved = 0;
    uint64_t *C = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)size);
    BBPair *todo = (BBPair *)malloc(sizeof(BBPair) * (size_t)todo_cap);
    if (!C || !todo) { PyErr_NoMemory(); goto done; }
    int rd = bb_read_masks(cand, size, every, C, "bb_root");
    if (rd < 0) goto done;
    if (rd) code = 4;
    if (!code) code = bb_root_state(T, P, C, &solved, todo, todo_cap, locked);
    if (code == 3) { out = Py_None; Py_INCREF(out); goto done; }
    if (code == 4) { out = Py_False; Py_INCREF(out); goto done; }
    out = PyList_New(size);
    if (!out) goto done;
    for (int c = 0; c < size; c++) {
        PyObject *v = PyLong_FromUnsignedLongLong(C[c]);
        if (!v) { Py_CLEAR(out); goto done; }
        PyList_SET_ITEM(out, c, v);
    }
done:
    free(C); free(todo);
    return out;
}

/* bb_search(tables, cand, P, solved, limit, node_limit, budget) -> (code, solutions, nodes)
 * cand: the candidate masks; P None: the root (naked and hidden singles, `_root` without
 * locked candidates) is made here from cand; else the root's per-digit cell sets, cand its
 * candidates and `solved` its placed cells. code 0: done; 1: node limit passed (nodes =
 * the node it stopped at); 2: the budget's `exhausted` said so; 3: the root contradicts
 * (no solution, nodes 1); 4: gave up (a table overflow: take the Python path). */
static PyObject *bb_search(PyObject *self, PyObject *args) {
    PyObject *cap, *cand, *Pin, *solved_o, *budget;
    int limit;
    long long node_limit;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOiLO", &cap, &cand, &Pin, &solved_o, &limit, &node_limit,
                          &budget)) return NULL;
    BBTables *T = (BBTables *)PyCapsule_GetPointer(cap, "csp.bb_tables");
    if (!T) return NULL;
    const int size = T->size, n = T->n, np = n + 1;
    if (!PyList_Check(cand) || PyList_GET_SIZE(cand) != size) {
        PyErr_SetString(PyExc_TypeError, "bb_search: a candidate list of the grid's size expected");
        return NULL;
    }
    int depth_cap = size + 2;
    int todo_cap = 2 * size + np * (T->nh + 1) + 8;
    U128 *Ps = (U128 *)malloc(sizeof(U128) * (size_t)np * (size_t)(depth_cap + 1));
    uint64_t *Cs = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)size * (size_t)(depth_cap + 1));
    BBFrame *fr = (BBFrame *)malloc(sizeof(BBFrame) * (size_t)(depth_cap + 1));
    BBPair *todo = (BBPair *)malloc(sizeof(BBPair) * (size_t)todo_cap);
    long long *weight = (long long *)calloc((size_t)size, sizeof(long long));
    PyObject *sols = PyList_New(0), *out = NULL;
    int code = 0;
    long long nodes = 0;
    if (!Ps || !Cs || !fr || !todo || !weight || !sols) { PyErr_NoMemory(); goto done; }
    /* slot 0: the root */
    U128 *P = Ps;
    uint64_t *C = Cs;
    U128 solved = 0;
    uint64_t every = ((uint64_t)1 << (n + 1)) - 2;
    int rd = bb_read_masks(cand, size, every, C, "bb_search");
    if (rd < 0) goto done;
    if (rd) { code = 4; goto finish; }
    if (Pin == Py_None) {
        code = bb_root_state(T, P, C, &solved, todo, todo_cap, 0);
        if (code) goto finish;
    } else {
        if (!PyList_Check(Pin) || PyList_GET_SIZE(Pin) != np) {
            PyErr_SetString(PyExc_TypeError, "bb_search: P: a list of n + 1 cell sets expected");
            goto done;
        }
        for (int d = 0; d < np; d++) if (bb_u128(PyList_GET_ITEM(Pin, d), &P[d]) < 0) goto done;
        if (bb_u128(solved_o, &solved) < 0) goto done;
    }
    int cell = bb_choose(T, P, C, solved, weight);
    if (cell < 0) {
        PyObject *s = bb_solution(C, size);
        if (!s || PyList_Append(sols, s) < 0) { Py_XDECREF(s); goto done; }
        Py_DECREF(s);
        nodes = 1;
        goto finish;
    }
    int top = 0;        /* frames 0..top, frame i's P and C in slot i; slot depth_cap: the child */
    U128 *cp = Ps + (size_t)depth_cap * np;
    uint64_t *cc = Cs + (size_t)depth_cap * size;
    fr[0].solved = solved; fr[0].cell = cell; fr[0].rest = C[cell];
    while (top >= 0) {
        int parent, pcell;
        U128 s;
        const uint64_t low = bb_next_branch(fr, &top, &parent, &pcell, &s);
        nodes++;
        if (node_limit >= 0 && nodes > node_limit) { code = 1; goto finish; }
        if (budget != Py_None && !(nodes & 255)) {
            PyObject *ex = PyObject_GetAttrString(budget, "exhausted");
            if (!ex) goto done;
            int t = PyObject_IsTrue(ex);
            Py_DECREF(ex);
            if (t < 0) goto done;
            if (t) { code = 2; goto finish; }
        }
        memcpy(cp, Ps + (size_t)parent * np, sizeof(U128) * (size_t)np);
        memcpy(cc, Cs + (size_t)parent * size, sizeof(uint64_t) * (size_t)size);
        todo[0].c = pcell; todo[0].d = __builtin_ctzll(low);
        int r = bb_settle(T, cp, cc, &s, todo, 1, todo_cap);
        if (r < 0) { code = 4; goto finish; }
        if (!r) {
            weight[pcell] += 1;
            continue;
        }
        int nxt = bb_choose(T, cp, cc, s, weight);
        if (nxt < 0) {
            PyObject *so = bb_solution(cc, size);
            if (!so || PyList_Append(sols, so) < 0) { Py_XDECREF(so); goto done; }
            Py_DECREF(so);
            if (PyList_GET_SIZE(sols) >= limit) goto finish;
            continue;
        }
        if (top + 1 >= depth_cap) { code = 4; goto finish; }
        top++;
        bb_push(fr, top, Ps, Cs, np, size, cp, cc, s, nxt);
    }
finish:
    if (code == 3) { nodes = 1; }
    out = Py_BuildValue("(iOL)", code, sols, nodes);
done:
    free(Ps); free(Cs); free(fr); free(todo); free(weight);
    Py_XDECREF(sols);
    return out;
}

/* bb_counts(tables, cand, cap, budget, per_solution, slack, tick)
 *   -> (code, counts, found, first, nodes, error)
 * csp.solutions._counts_pure on the root of `cand` (bb_root_state): the same walk as
 * _dfs_pure_from with `seen` (the same branching, node count and skips: from the second
 * solution on a child whose parent's candidates, less the cell's other digits, are all
 * seen is skipped before its propagation, a node whose candidates are all seen after it)
 * and the same counts: `counts` (index cell * n + digit, size * n + n + 1 of them) as
 * _counts_pure leaves them, `found` solutions, `first` the first one's digits (None: none).
 * budget >= 0: past budget (slack from the second solution on) plus per_solution a
 * solution found, code 1 (_OverBudget); tick: called with `found` every 64 nodes, and an
 * exception it raises ends the walk with code 2, the counts so far and that exception as
 * `error` (the caller raises it). code 0: done, 3: the root contradicts, 4: not taken
 * (a digit out of range, a table overflow: the Python path). `locked`: the root and every
 * node propagate locked candidates after their singles (bb_locked; _dfs_pure_from's
 * `locked`), but for a node whose singles placed every cell (nothing left to remove). */
static PyObject *bb_counts(PyObject *self, PyObject *args) {
    PyObject *capsule, *cand, *tick, *out = NULL, *err = NULL;
    PyObject *counts_o = NULL, *first_o = NULL;
    int cap, locked = 0;
    long long budget, per_solution, slack;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiLLLO|p", &capsule, &cand, &cap, &budget, &per_solution,
                          &slack, &tick, &locked)) return NULL;
    BBTables *T = (BBTables *)PyCapsule_GetPointer(capsule, "csp.bb_tables");
    if (!T) return NULL;
    const int size = T->size, n = T->n, np = n + 1;
    if (!PyList_Check(cand) || PyList_GET_SIZE(cand) != size) {
        PyErr_SetString(PyExc_TypeError, "bb_counts: a candidate list of the grid's size expected");
        return NULL;
    }
    if (cap < 1) { PyErr_SetString(PyExc_ValueError, "bb_counts: cap must be at least 1"); return NULL; }
    const uint64_t every = ((uint64_t)1 << (n + 1)) - 2;
    int depth_cap = size + 2;
    int todo_cap = 2 * size + np * (T->nh + 1) + 8;
    Py_ssize_t ncounts = (Py_ssize_t)size * n + n + 1;
    U128 *Ps = (U128 *)malloc(sizeof(U128) * (size_t)np * (size_t)(depth_cap + 1));
    uint64_t *Cs = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)size * (size_t)(depth_cap + 1));
    BBFrame *fr = (BBFrame *)malloc(sizeof(BBFrame) * (size_t)(depth_cap + 1));
    BBPair *todo = (BBPair *)malloc(sizeof(BBPair) * (size_t)todo_cap);
    long long *weight = (long long *)calloc((size_t)size, sizeof(long long));
    long long *counts = (long long *)calloc((size_t)ncounts, sizeof(long long));
    int *first = (int *)malloc(sizeof(int) * (size_t)size);
    U128 seen[64], fixed[64], solved0 = 0;
    int code = 0, have_first = 0;
    long long nodes = 0, found = 0;
    if (!Ps || !Cs || !fr || !todo || !weight || !counts || !first) { PyErr_NoMemory(); goto done; }
    U128 *P = Ps;
    uint64_t *C = Cs;
    int rd = bb_read_masks(cand, size, every, C, "bb_counts");
    if (rd < 0) goto done;
    if (rd) { code = 4; goto finish; }
    code = bb_root_state(T, P, C, &solved0, todo, todo_cap, locked);
    if (code) goto finish;
    for (int d = 0; d < np; d++) { seen[d] = 0; fixed[d] = P[d] & solved0; }

/* a solution (its boards LP, masks LC): _counts_pure's loop body */
#define BB_LEAF(LP, LC) do {                                                           \
        found++;                                                                       \
        if (!have_first) {                                                             \
            for (int c_ = 0; c_ < size; c_++) first[c_] = bb_hib((LC)[c_]);             \
            have_first = 1;                                                            \
        }                                                                              \
        if (cap == 1) {                                                                \
            for (int d_ = 1; d_ < np; d_++) seen[d_] |= (LP)[d_];                      \
        } else {                                                                       \
            for (int c_ = 0; c_ < size; c_++) {                                        \
                if ((solved0 >> c_) & 1) continue;                                     \
                int d_ = bb_hib((LC)[c_]);                                             \
                long long k_ = ++counts[(Py_ssize_t)c_ * n + d_];                      \
                if (k_ == cap) seen[d_] |= (U128)1 << c_;                              \
            }                                                                          \
            if (found == cap)                                                          \
                for (int d_ = 1; d_ < np; d_++) seen[d_] |= fixed[d_];                 \
        }                                                                              \
    } while (0)

    int cell = bb_choose(T, P, C, solved0, weight);
    if (cell < 0) {
        BB_LEAF(P, C);
        goto finish;
    }
    int top = 0;
    U128 *cp = Ps + (size_t)depth_cap * np;
    uint64_t *cc = Cs + (size_t)depth_cap * size;
    fr[0].solved = solved0; fr[0].cell = cell; fr[0].rest = C[cell];
    while (top >= 0) {
        int parent, pcell;
        U128 s;
        const uint64_t low = bb_next_branch(fr, &top, &parent, &pcell, &s);
        nodes++;
        if (tick != Py_None && !(nodes & 63)) {
            PyObject *r = PyObject_CallFunction(tick, "L", found);
            if (!r) {
                PyObject *et, *ev, *tb;
                PyErr_Fetch(&et, &ev, &tb);
                PyErr_NormalizeException(&et, &ev, &tb);
                if (tb && ev) PyException_SetTraceback(ev, tb);
                Py_XDECREF(et); Py_XDECREF(tb);
                err = ev;
                if (!err) { Py_INCREF(Py_None); err = Py_None; }
                code = 2;
                goto finish;
            }
            Py_DECREF(r);
        }
        if (budget >= 0 && nodes > (found < 2 ? budget : slack) + per_solution * found) {
            code = 1;
            goto finish;
        }
        const int digit = __builtin_ctzll(low);
        const U128 *pp = Ps + (size_t)parent * np;
        if (found >= 2) {
            U128 other = ~((U128)1 << pcell);
            int open_ = 0;
            for (int d = 1; d < np && !open_; d++)
                if (pp[d] & ~seen[d] & (d != digit ? other : ~(U128)0)) open_ = 1;
            if (!open_) continue;
        }
        memcpy(cp, pp, sizeof(U128) * (size_t)np);
        memcpy(cc, Cs + (size_t)parent * size, sizeof(uint64_t) * (size_t)size);
        todo[0].c = pcell; todo[0].d = digit;
        int r = bb_settle(T, cp, cc, &s, todo, 1, todo_cap);
        if (r > 0 && locked && s != T->full) r = bb_locked(T, cp, cc, &s, todo, todo_cap, pp);
        if (r < 0) { code = 4; goto finish; }
        if (!r) {
            weight[pcell] += 1;
            continue;
        }
        if (found >= 2) {
            int open_ = 0;
            for (int d = 1; d < np && !open_; d++)
                if (cp[d] & ~seen[d]) open_ = 1;
            if (!open_) continue;
        }
        int nxt = bb_choose(T, cp, cc, s, weight);
        if (nxt < 0) {
            BB_LEAF(cp, cc);
            continue;
        }
        if (top + 1 >= depth_cap) { code = 4; goto finish; }
        top++;
        bb_push(fr, top, Ps, Cs, np, size, cp, cc, s, nxt);
    }
#undef BB_LEAF
finish:
    if (code == 0 || code == 2) {      /* _counts_pure's `finally` */
        if (cap == 1) {
            for (int d = 1; d < np; d++)
                for (U128 x = seen[d]; x; x &= x - 1) counts[(Py_ssize_t)bb_ctz(x) * n + d] = 1;
        } else if (found) {
            for (int d = 1; d < np; d++)
                for (U128 x = fixed[d]; x; x &= x - 1) counts[(Py_ssize_t)bb_ctz(x) * n + d] = found;
        }
    }
    counts_o = PyList_New(ncounts);
    if (!counts_o) goto done;
    for (Py_ssize_t i = 0; i < ncounts; i++) {
        PyObject *v = PyLong_FromLongLong(counts[i]);
        if (!v) goto done;
        PyList_SET_ITEM(counts_o, i, v);
    }
    if (have_first) {
        first_o = PyList_New(size);
        if (!first_o) goto done;
        for (int c = 0; c < size; c++) {
            PyObject *v = PyLong_FromLong(first[c]);
            if (!v) goto done;
            PyList_SET_ITEM(first_o, c, v);
        }
    } else {
        first_o = Py_None;
        Py_INCREF(first_o);
    }
    out = Py_BuildValue("(iOLOLO)", code, counts_o, found, first_o, nodes, err ? err : Py_None);
done:
    Py_XDECREF(counts_o); Py_XDECREF(first_o); Py_XDECREF(err);
    free(Ps); free(Cs); free(fr); free(todo); free(weight); free(counts); free(first);
    return out;
}

static PyMethodDef bb_methods[] = {
    {"bb_tables", bb_tables, METH_VARARGS,
     "bb_tables(n, size, full, peers, houses, home): csp.engine.BitboardTables packed (a capsule), None past the kernel's sizes"},
    {"bb_root", bb_root, METH_VARARGS,
     "bb_root(tables, cand, locked=False) -> masks, None (a contradiction) or False (not taken): csp.search.propagate_pure up to 9 digits, _root"},
    {"bb_counts", bb_counts, METH_VARARGS,
     "bb_counts(tables, cand, cap, budget, per_solution, slack, tick, locked=False) -> (code, counts, found, first, nodes, error): csp.solutions._counts_pure"},
    {"bb_search", bb_search, METH_VARARGS,
     "bb_search(tables, cand, P, solved, limit, node_limit, budget) -> (code, solutions, nodes): csp.search._search_bitboards"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "csp._enum_kernel",
    "Compiled enumeration of a puzzle's CNF (see csp/kernel.py and csp/enum.py).", -1, bb_methods,
};

PyMODINIT_FUNC PyInit__enum_kernel(void) {
    PyObject *m;
    if (PyType_Ready(&EnumeratorType) < 0) return NULL;
    m = PyModule_Create(&moddef);
    if (!m) return NULL;
    Py_INCREF(&EnumeratorType);
    if (PyModule_AddObject(m, "Enumerator", (PyObject *)&EnumeratorType) < 0) {
        Py_DECREF(&EnumeratorType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "DONE", DONE);
    PyModule_AddIntConstant(m, "PAUSED", PAUSED);
    PyModule_AddIntConstant(m, "STOPPED", STOPPED);
    PyModule_AddIntConstant(m, "GAVE_UP", GAVE_UP);
    PyModule_AddIntConstant(m, "BB_TICK", 255);
    return m;
}
