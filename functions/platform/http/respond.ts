/**
 * The one response path. Most answers are Fetch Responses that the Node adapter writes; three kinds
 * are written straight to Node's response instead: cached public answers (the hottest path of the
 * site), pages and files (written by sirv and Astro), and file downloads (streamed). This module
 * owns the rules all of them share:
 * - every answer carries the headers middleware asked for (`setAnswerHeader`, `varyOn`,
 *   `markPrivate`), whichever path writes it;
 * - a handler that wrote the Node response itself returns `alreadySent()`, and `nodeFetch` reports
 *   whatever was written as sent (Hono's HEAD handling re-wraps responses and would lose the marker);
 * - a failure after the head went out is logged and the connection closed: never a second head;
 * - per-user answers never go through the public answer cache.
 *
 * The rules live by job: answer headers in answer-headers.ts, answers written to Node directly in
 * node-answers.ts, cached public and private answers in cached-answers.ts. Callers import all of it
 * from here.
 */
import { localPath } from '#shared/redirect.ts';
import type { AppContext } from './context.ts';

export { answerHeaders, finishAnswer, markPrivate, privateForm, REQUEST_ID_HEADER, setAnswerHeader, varyOn } from './answer-headers.ts';
export { abortAfterHead, alreadySent, nodeFetch, sendStream } from './node-answers.ts';
export {
  answerResponse,
  createAnswer,
  sendCachedJson,
  sendPrivateJson,
  writeAnswer,
  type AnswerRequest,
  type AnswerScope,
  type CachedAnswer,
  type JsonAnswer,
} from './cached-answers.ts';

/**
 * Redirects to a path on our own origin (303 See Other after a form post by default). Every redirect
 * the product makes goes through the one rule of src/lib/shared/redirect.ts; a target that breaks it is a
 * programming error, never an open redirect.
 */
export function redirectLocal(c: AppContext, target: string, status: 301 | 302 | 303 | 307 = 303): Response {
  const location = localPath(target);
  if (!location) throw new Error(`Refusing to redirect off the site: ${JSON.stringify(target)}`);
  return c.redirect(location, status);
}
