/**
 * Imported first by the staff islands, whose bundles carry zod (the content registry's schemas):
 * zod compiles its object parsers with `new Function` when it may, and finds out by trying once,
 * which the page's CSP (no `unsafe-eval`) refuses and reports as a violation on every staff page.
 * Told not to try, it uses its interpreted parsers from the start (the server keeps compiling).
 */
import { config } from 'zod';

config({ jitless: true });
