// Splits callgrind profiles (of bench/callgrind-auth.mjs, kept with KEEP_CALLGRIND=1) into V8's optimizing
// compiler, its GC, and the rest (builtins, JIT code, the rest of node and V8, libc), per call. Compiler and
// GC work falls into a short measured window unevenly; the rest repeats between runs.
//   node bench/callgrind-split.mjs <calls> <callgrind.out>...   (needs callgrind_annotate)
import { execFileSync } from 'node:child_process';
import process from 'node:process';

const GC =
  /Marking|Sweep|Scaveng|Evacuat|heap::|Heap::|IteratePointers|Remembered|SlotSet|Pretenuring|Compact|ActiveSystemPages|MemoryChunk|MemoryAllocator|BodyDescriptor|SizeFromMap|IterateObjectCache|RelocIterator|VisitMapPointer|ShouldVisit|Concurrent|GlobalHandles|Weak/;
const COMPILER = /compiler::|Turbofan|turboshaft|Maglev|maglev|Compile|Parser|Bytecode|Deoptimiz|Zone/;

/** Instructions (self cost) per category of one profile. */
function split(file) {
  const text = execFileSync('callgrind_annotate', ['--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  const sums = { compiler: 0, gc: 0, rest: 0 };
  for (const line of text.split('\n')) {
    const match = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line);
    if (!match || line.includes('PROGRAM TOTALS')) continue;
    const count = Number(match[1].replaceAll(',', ''));
    sums[GC.test(match[2]) ? 'gc' : COMPILER.test(match[2]) ? 'compiler' : 'rest'] += count;
  }
  return sums;
}

const [calls, ...files] = process.argv.slice(2);
for (const file of files) {
  const { compiler, gc, rest } = split(file);
  const k = (n) => `${(n / Number(calls) / 1000).toFixed(0)} k`;
  process.stdout.write(
    `${file}: total ${k(compiler + gc + rest)}, compiler ${k(compiler)}, GC ${k(gc)}, rest ${k(rest)}\n`,
  );
}
