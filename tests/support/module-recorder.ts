/**
 * Loaded with `node --import` into a server under test: records every module the process resolves
 * (its own and its packages', on any thread) and writes their URLs, one a line, to
 * $RECORD_MODULES_TO when the process exits: what a start loads, counted by the loader itself. With
 * $ANNOUNCE_RESOLVED (the end of a file's path) it also writes "resolved <url>" to stderr the moment
 * that module is resolved, a point in the start a test can act at.
 */
import { appendFileSync, writeSync } from 'node:fs';
import { registerHooks } from 'node:module';

const seen = new Set<string>();
const announce = process.env.ANNOUNCE_RESOLVED;
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    if (announce && !seen.has(resolved.url) && resolved.url.endsWith(announce)) writeSync(2, `resolved ${resolved.url}\n`);
    seen.add(resolved.url);
    return resolved;
  },
});
// A worker thread (members' post renderer) adds its own list to the same file.
const target = process.env.RECORD_MODULES_TO;
if (target) process.on('exit', () => appendFileSync(target, [...seen, ''].join('\n')));
