/**
 * Members' posts are rendered on a thread of their own, one at a time, each within a time limit.
 * Markdown has shapes whose parsing grows with the square of their size (emphasis, nested links,
 * setext headings, wide tables, …): the schema refuses the ones we know before parsing, but a body
 * that parses slowly in a way no check foresaw must never hold the server's thread, which answers
 * every other request. Here such a post costs at most `timeoutMs` of the renderer's thread, which
 * is then replaced, and is refused as too complex (422); posts waiting past `maxWaiting` are told to
 * try again (429). The clock of a post starts when the renderer takes it, not while it waits.
 */
import { Worker } from 'node:worker_threads';
import { AppError } from '../platform/errors.ts';
import { BodyRenderError } from './render.ts';
import type { RenderAnswer } from './render-worker.ts';

export interface MemberRendererOptions {
  /** The longest one post may take to render (a real post of 20,000 characters takes well under 0.2 s). */
  timeoutMs?: number;
  /** Posts that may wait for the renderer; more are refused with 429. */
  maxWaiting?: number;
  /** Heap of the renderer's thread, in MB (a post that needs more fails like a slow one). */
  heapMb?: number;
}

export interface MemberRenderer {
  /** A member's Markdown as sanitised HTML (`renderMemberPost`), or a `BodyRenderError`. */
  render(source: string): Promise<string>;
  close(): Promise<void>;
}

const TOO_COMPLEX = 'This post is too complex to display. Please simplify its formatting.';
const WORKER = new URL('./render-worker.ts', import.meta.url);

interface Task {
  source: string;
  resolve: (html: string) => void;
  reject: (err: unknown) => void;
}

export function createMemberRenderer({ timeoutMs = 1_500, maxWaiting = 100, heapMb = 256 }: MemberRendererOptions = {}): MemberRenderer {
  const waiting: Task[] = [];
  let worker: Worker | undefined;
  let ready = false;
  let running: { task: Task; timer: NodeJS.Timeout } | undefined;
  let closed = false;

  /** Ends the running task (its answer, or why not) and takes the next. */
  function settle(outcome: { html: string } | { error: unknown }) {
    const current = running;
    if (!current) return;
    clearTimeout(current.timer);
    running = undefined;
    if ('html' in outcome) current.task.resolve(outcome.html);
    else current.task.reject(outcome.error);
    next();
  }

  /** Drops the renderer's thread (a slow post, a crash); the next post starts a fresh one. */
  function discard(dead: Worker) {
    if (worker !== dead) return;
    worker = undefined;
    ready = false;
    void dead.terminate();
  }

  function spawn(): Worker {
    const started = new Worker(WORKER, { resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    started.unref();
    started.on('message', (message: 'ready' | RenderAnswer) => {
      if (worker !== started) return;
      if (message === 'ready') {
        ready = true;
        return next();
      }
      settle('html' in message ? { html: message.html } : { error: new BodyRenderError(message.problem) });
    });
    started.on('error', (err) => died(started, err));
    started.on('exit', () => died(started, new Error('exited')));
    return started;
  }

  /**
   * The thread ended on its own: out of memory on the post it was rendering (that post is refused
   * and the next gets a fresh thread), or before it was ready (a broken install: what waits fails).
   */
  function died(dead: Worker, err: unknown) {
    if (worker !== dead) return;
    const wasReady = ready;
    discard(dead);
    if (running) return settle({ error: new BodyRenderError(TOO_COMPLEX) });
    if (!wasReady) for (const task of waiting.splice(0)) task.reject(new Error('The members’ renderer did not start.', { cause: err }));
  }

  function next() {
    if (closed || running || waiting.length === 0) return;
    if (!worker) worker = spawn();
    if (!ready) return;
    const task = waiting.shift();
    if (!task) return;
    const current = worker;
    const timer = setTimeout(() => {
      discard(current);
      settle({ error: new BodyRenderError(TOO_COMPLEX) });
    }, timeoutMs);
    running = { task, timer };
    current.postMessage(task.source);
  }

  return {
    render(source) {
      if (closed) return Promise.reject(new Error('The members’ renderer is closed.'));
      if (waiting.length >= maxWaiting)
        return Promise.reject(
          new AppError('rate_limited', 'Many posts are being written right now. Please try again in a minute.', {
            headers: { 'Retry-After': '60' },
          }),
        );
      return new Promise<string>((resolve, reject) => {
        waiting.push({ source, resolve, reject });
        next();
      });
    },
    async close() {
      closed = true;
      for (const task of waiting.splice(0)) task.reject(new Error('The members’ renderer is closed.'));
      if (running) settle({ error: new Error('The members’ renderer is closed.') });
      const last = worker;
      worker = undefined;
      await last?.terminate();
    },
  };
}
