/**
 * Loaded with `node --import` into a server under test: records every module the process resolves
 * (its own and its packages', on any thread) and writes their URLs, one a line, to
 * $RECORD_MODULES_TO when the process exits. What a start loads, counted by the loader itself.
 */
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const seen = new Set<string>();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    seen.add(resolved.url);
    return resolved;
  },
});
// A worker thread (members' post renderer) adds its own list to the same file.
const target = process.env.RECORD_MODULES_TO;
if (target) process.on('exit', () => appendFileSync(target, [...seen, ''].join('\n')));
