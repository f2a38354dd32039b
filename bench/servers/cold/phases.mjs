// bench/cold-phases.mjs: marks for the W0 servers' phases after their imports, written to stderr with the first
// stdout write (the `initialize` answer) as `PHASES {"importsDoneMs":..,...}`. Imported last by the two phase
// servers, so `performance.now()` here is when the server's own imports are done (ms since the process started).
const importsDoneMs = performance.now();
const marks = { importsDoneMs };
let last = importsDoneMs;

/** Records the ms since the previous mark as `name`. */
export function mark(name) {
  const now = performance.now();
  marks[name] = now - last;
  last = now;
}

const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  mark('toAnswerMs');
  process.stderr.write(`PHASES ${JSON.stringify(marks)}\n`);
  process.stdout.write = write;
  return write(chunk, ...rest);
};
