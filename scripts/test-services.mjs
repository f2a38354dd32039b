// The real services some test files need (Redis, HAProxy, Chromium: Debian's packages), found,
// installed when this machine can do so without asking, or named as skipped. `npm test` runs this
// file first (`ensure`); vitest.config.ts uses `testFilesNeeding` and `skippedFilesReport` to leave
// out the files whose service is still missing and to say so at the end of the run.
// A test file declares what it needs in a comment line of its own: `// @needs redis-server haproxy`.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** Each service a test may need: the binary it runs and the Debian package that ships it. */
export const SERVICES = {
  'redis-server': { debianPackage: 'redis-server', why: 'the cluster tests run a real Redis' },
  haproxy: { debianPackage: 'haproxy', why: 'the cluster tests put a real HAProxy in front of replicas' },
  chromium: { debianPackage: 'chromium', why: 'the settings-page tests drive a real browser (playwright-core)' },
};

// Root's PATH has the sbin folders; a plain user's often lacks them though the binaries are there.
const EXTRA_DIRS = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The path of `binary` on PATH or in the sbin folders, or undefined. */
export function findBinary(binary, searchPath = process.env.PATH ?? '') {
  const dirs = [...searchPath.split(path.delimiter).filter(Boolean), ...EXTRA_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, binary);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Names of the services in SERVICES that are not installed. */
export function missingServices() {
  return Object.keys(SERVICES).filter((name) => !findBinary(name));
}

function canInstallWithoutAsking() {
  if (process.env.MCP_TOOLKIT_TEST_INSTALL === '0') return false;
  return process.platform === 'linux' && process.getuid?.() === 0 && Boolean(findBinary('apt-get'));
}

function installCommand(names) {
  return `apt-get install ${names.map((name) => SERVICES[name].debianPackage).join(' ')}`;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function* testFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* testFiles(full);
    else if (entry.name.endsWith('.test.ts')) yield full;
  }
}

/** Test files (paths relative to the repository, '/'-separated) mapped to the services they declare. */
export function testFilesNeeding(root = ROOT) {
  const needs = new Map();
  for (const file of testFiles(path.join(root, 'test'))) {
    const declared = readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line) => /^\s*\/\/\s*@needs\s+(.+)$/.exec(line)?.[1].trim().split(/\s+/) ?? []);
    const unknown = declared.filter((name) => !(name in SERVICES));
    const relative = path.relative(root, file).split(path.sep).join('/');
    if (unknown.length) throw new Error(`${relative}: @needs names unknown services: ${unknown.join(', ')}`);
    if (declared.length) needs.set(relative, declared);
  }
  return needs;
}

/** The files to leave out because a service they need is missing, each with what it lacks. */
export function skippedTestFiles(missing = missingServices(), root = ROOT) {
  const skipped = [];
  for (const [file, needed] of testFilesNeeding(root)) {
    const lacking = needed.filter((name) => missing.includes(name));
    if (lacking.length) skipped.push({ file, lacking });
  }
  return skipped;
}

/** The lines printed at the end of a run that left files out (empty when none was). */
export function skippedFilesReport(skipped) {
  if (!skipped.length) return [];
  const lacking = [...new Set(skipped.flatMap((entry) => entry.lacking))];
  return [
    `Skipped ${skipped.length} test file(s): a service they need is not installed.`,
    ...skipped.map(({ file, lacking: names }) => `  ${file} (needs ${names.join(', ')})`),
    `Install with: ${installCommand(lacking)} (as root; Debian/Ubuntu), then run npm test again.`,
  ];
}

/**
 * Installs the missing services where this machine can without asking (root with apt-get, and
 * MCP_TOOLKIT_TEST_INSTALL is not 0). Under CI=true a service still missing afterwards is an
 * error: CI must run every test. Returns the services still missing.
 */
export function ensureServices() {
  let missing = missingServices();
  if (missing.length && canInstallWithoutAsking()) {
    const packages = missing.map((name) => SERVICES[name].debianPackage);
    console.error(
      `test services: installing ${packages.join(', ')} with apt-get (${missing.map((name) => SERVICES[name].why).join('; ')})`,
    );
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
    const install =
      update.status === 0 &&
      spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env,
      });
    if (!install || install.status !== 0) console.error('test services: apt-get failed (see above)');
    missing = missingServices();
  }
  if (missing.length && process.env.CI === 'true') {
    throw new Error(
      `CI=true and ${missing.join(', ')} missing: CI runs every test. Install with: ${installCommand(missing)}`,
    );
  }
  return missing;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const missing = ensureServices();
    if (missing.length) {
      console.error(
        `test services: ${missing.join(', ')} not installed and not installable here (not root, or no apt-get); ` +
          'the test files that need them will be skipped and named at the end.',
      );
    }
  } catch (error) {
    console.error(`test services: ${error.message}`);
    process.exitCode = 1;
  }
}
