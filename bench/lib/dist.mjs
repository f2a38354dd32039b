// Where the bench loads the toolkit from: this tree's dist/, or the built dist/ of another checkout when
// MCP_TOOLKIT_DIST=<dir>/dist is set (bench/compare.mjs sets it to run the same harness against a baseline).
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

/** The toolkit's dist/ folder as a file URL (ending in `/`). */
export const DIST = process.env.MCP_TOOLKIT_DIST
  ? pathToFileURL(`${path.resolve(process.env.MCP_TOOLKIT_DIST)}/`)
  : new URL('../../dist/', import.meta.url);

/** The URL of `file` inside that dist/ (e.g. 'index.js', 'public/cluster.js'). */
export const distUrl = (file) => new URL(file, DIST).href;
