/**
 * Markdown and MDX are rendered on threads of their own, one text at a time, each within a time
 * limit: members' posts on one thread, staff bodies (articles, events, lessons, newsletter issues:
 * their save, preview and first render) on another, so neither kind waits behind the other.
 * Markdown has shapes whose parsing grows with the square of their size (emphasis, nested links,
 * setext headings, wide tables, …): the schemas refuse the ones we know before parsing
 * (#shared/content/markdown-limits.ts), but a text that parses slowly in a way no check foresaw
 * (or a body from git or from before the limits) must never hold the server's thread, which answers
 * every other request. Here such a text costs at most `timeoutMs` of the renderer's thread, which is
 * then replaced, and is refused as too complex (422); texts waiting past `maxWaiting` are told to try
 * again (429). The clock of a text starts when the renderer takes it, not while it waits.
 */
import { Worker } from 'node:worker_threads';
import { entryPoint } from '../platform/app-files.ts';
import { AppError } from '../platform/errors.ts';
import { BodyRenderError, type BodyFormat } from './body.ts';
import type { RenderAnswer, RenderProfile, RenderRequest } from './render-worker.ts';

export interface BodyRendererOptions {
  /** The longest one text may take to render. */
  timeoutMs?: number;
  /** Texts that may wait for the renderer; more are refused with 429. */
  maxWaiting?: number;
  /** Heap of the renderer's thread, in MB (a text that needs more fails like a slow one). */
  heapMb?: number;
}

export interface BodyRenderer {
  /** The text as sanitised HTML under the renderer's profile, or a `BodyRenderError` (422). */
  render(source: string, format?: BodyFormat): Promise<string>;
  close(): Promise<void>;
}

/** What a renderer tells its writers, in the words of what they write. */
interface RendererWords {
  tooComplex: string;
  busy: string;
  name: string;
}

const WORKER = entryPoint('functions/content/render-worker.ts');

interface Task {
  request: RenderRequest;
  resolve: (html: string) => void;
  reject: (err: unknown) => void;
}

/** Members' posts (`renderMemberPost`): a real post of 20,000 characters takes well under 0.2 s. */
export function createMemberRenderer({ timeoutMs = 1_500, maxWaiting = 100, heapMb = 256 }: BodyRendererOptions = {}): BodyRenderer {
  return createRendererThread(
    { kind: 'member' },
    {
      tooComplex: 'This post is too complex to display. Please simplify its formatting.',
      busy: 'Many posts are being written right now. Please try again in a minute.',
      name: 'members’ renderer',
    },
    { timeoutMs, maxWaiting, heapMb },
  );
}

/**
 * Staff bodies (`renderBody`, images from our site or `imageOrigins` only): ten times a post's
 * length at most, so more time and heap; a real 200,000-character article takes about a second.
 */
export function createStaffRenderer({
  imageOrigins,
  timeoutMs = 10_000,
  maxWaiting = 500,
  heapMb = 512,
}: BodyRendererOptions & { imageOrigins: readonly string[] }): BodyRenderer {
  return createRendererThread(
    { kind: 'staff', imageOrigins },
    {
      tooComplex: 'This text is too complex to display. Please simplify its formatting.',
      busy: 'Many texts are being displayed right now. Please try again in a minute.',
      name: 'staff bodies’ renderer',
    },
    { timeoutMs, maxWaiting, heapMb },
  );
}

/** A text refused because too many wait: the caller tries again in a minute. */
const busy = (words: RendererWords) => new AppError('rate_limited', words.busy, { headers: { 'Retry-After': '60' } });
/** What a text gets from a renderer that closed. */
const closedError = (words: RendererWords) => new Error(`The ${words.name} is closed.`);

/**
 * One renderer: its thread, the text it renders and the texts waiting. One closure over that state,
 * longer than the house's functions: its parts (settle, discard, spawn, died, next) only make sense together.
 */
function createRendererThread(
  profile: RenderProfile,
  words: RendererWords,
  { timeoutMs, maxWaiting, heapMb }: Required<BodyRendererOptions>,
): BodyRenderer {
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

  /** Drops the renderer's thread (a slow text, a crash); the next text starts a fresh one. */
  function discard(dead: Worker) {
    if (worker !== dead) return;
    worker = undefined;
    ready = false;
    void dead.terminate();
  }

  function spawn(): Worker {
    const started = new Worker(WORKER, { workerData: profile, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
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
   * The thread ended on its own: out of memory on the text it was rendering (that text is refused
   * and the next gets a fresh thread), or before it was ready (a broken install: what waits fails).
   */
  function died(dead: Worker, err: unknown) {
    if (worker !== dead) return;
    const wasReady = ready;
    discard(dead);
    if (running) return settle({ error: new BodyRenderError(words.tooComplex) });
    if (!wasReady) for (const task of waiting.splice(0)) task.reject(new Error(`The ${words.name} did not start.`, { cause: err }));
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
      settle({ error: new BodyRenderError(words.tooComplex) });
    }, timeoutMs);
    running = { task, timer };
    current.postMessage(task.request);
  }

  return {
    render(source, format = 'markdown') {
      if (closed) return Promise.reject(closedError(words));
      if (waiting.length >= maxWaiting) return Promise.reject(busy(words));
      return new Promise<string>((resolve, reject) => {
        waiting.push({ request: { source, format }, resolve, reject });
        next();
      });
    },
    async close() {
      closed = true;
      for (const task of waiting.splice(0)) task.reject(closedError(words));
      if (running) settle({ error: closedError(words) });
      const last = worker;
      worker = undefined;
      await last?.terminate();
    },
  };
}
