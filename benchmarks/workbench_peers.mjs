// Long-lived worker for benchmarks/workbench.py: runs one JavaScript peer under node.
//
//   node benchmarks/workbench_peers.mjs svs PEERS_DIR/svs/svs.cjs
//   node benchmarks/workbench_peers.mjs iss PEERS_DIR/iss
//
// svs: the JavaScript port of the C# variant solver (SudokuVariantSolverJS, ISC), bundled by
//      `workbench.py setup` into one CommonJS file; input: the f-puzzles JSON object.
// iss: the Interactive Sudoku Solver (sigh, MIT), its ES modules as checked out; input: its
//      constraint text (benchmarks/iss_text.py).
//
// Reads one JSON request per stdin line: {"op": "truecandidates", "cap": K, "input": ...}
// or {"op": "count", "input": ...}; writes one JSON line per request: cpu_ms and wall_ms
// of the call alone (process.cpuUsage, performance.now), status ("ok", "unsolvable" or
// "error" with a message), and the answer: per cell the candidate digits ("candidates") and,
// for cap > 1, per cell the count of each digit 1..N ("counts"), or the solution "count".
// No peer code is copied here; the peers are loaded from the set-up directory.
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const [peer, where] = process.argv.slice(2);

const cpuMs = (t0) => {
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
};

async function makeSvs(bundle) {
  const SVS = createRequire(import.meta.url)(bundle).default;
  let messages = [];
  const solver = new SVS((m) => messages.push(m));
  return {
    async truecandidates(board, cap) {
      messages = [];
      await solver.trueCandidates({ board, options: { maxSolutionsPerCandidate: cap } });
      const last = messages[messages.length - 1];
      if (!last || last.result === 'invalid') return { status: 'unsolvable' };
      if (last.result !== 'truecandidates') return { status: 'error', error: JSON.stringify(last) };
      const size = board.size;
      const out = { status: 'ok', candidates: last.candidates.map((c) => (Array.isArray(c) ? c : [c.value])) };
      if (cap > 1) {
        out.counts = [];
        for (let i = 0; i < size * size; i++) {
          out.counts.push(last.counts.slice(i * size, (i + 1) * size));
        }
      }
      return out;
    },
    async count(board) {
      messages = [];
      await solver.countSolutions({ board, options: { maxSolutions: 0 } });
      const last = messages[messages.length - 1];
      if (!last || last.result !== 'count' || !last.complete) {
        return { status: 'error', error: JSON.stringify(last) };
      }
      return { status: 'ok', count: last.count };
    },
  };
}

async function makeIss(root) {
  globalThis.self = globalThis;
  globalThis.VERSION_PARAM = '';
  const url = (p) => pathToFileURL(`${root}/${p}`).href;
  const { SudokuParser } = await import(url('js/sudoku_parser.js'));
  const { SudokuBuilder } = await import(url('js/solver/sudoku_builder.js'));
  const build = (text) => {
    const constraint = SudokuParser.parseText(text);
    return SudokuBuilder.build(SudokuBuilder.resolveConstraint(constraint));
  };
  return {
    async truecandidates(text, cap) {
      const solver = build(text);
      const counts = solver.solveAllPossibilities(cap);
      if (!counts) return { status: 'unsolvable' };
      const numValues = solver.geometry().numValues;
      const numCells = counts.length / numValues;
      const out = { status: 'ok', candidates: [] };
      if (cap > 1) out.counts = [];
      for (let i = 0; i < numCells; i++) {
        const row = Array.from(counts.slice(i * numValues, (i + 1) * numValues));
        const cands = [];
        row.forEach((c, v) => { if (c > 0) cands.push(v + 1); });
        out.candidates.push(cands);
        if (cap > 1) out.counts.push(row);
      }
      if (out.candidates.every((c) => c.length === 0)) return { status: 'unsolvable' };
      return out;
    },
    async count(text) {
      const solver = build(text);
      return { status: 'ok', count: solver.countSolutions() };
    },
  };
}

const impl = peer === 'svs' ? await makeSvs(where) : await makeIss(where);

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  let reply;
  try {
    const req = JSON.parse(line);
    const t0 = process.cpuUsage();
    const w0 = performance.now();
    const res = req.op === 'count'
      ? await impl.count(req.input)
      : await impl.truecandidates(req.input, req.cap || 1);
    reply = { ...res, cpu_ms: cpuMs(t0), wall_ms: performance.now() - w0 };
  } catch (e) {
    reply = { status: 'error', error: String(e && e.message || e) };
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
}
