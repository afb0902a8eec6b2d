/**
 * The typed Hono environment every route and middleware shares. Domains add their own variables by
 * augmenting `AppVariables` (e.g. the auth domain adds the viewer), so this module imports no domain.
 */
import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import type { Logger } from '../logger.ts';

/** Headers of the answer being built; shared objects are never mutated (copy on write). */
export type AnswerHeaders = Readonly<Record<string, string>>;

export interface AppVariables {
  /** Id of this request, in every log line and error body (`X-Request-Id`). */
  requestId: string;
  /** Headers middleware wants on the answer, whatever path writes it (see respond.ts). */
  answerHeaders: AnswerHeaders;
  /** This request's logger: its lines carry the request id. Made on first use (most requests log nothing but the access line). */
  log: () => Logger;
}

/**
 * On Node the adapter passes the raw request and response; elsewhere (tests, serverless) they are
 * absent, and a serverless entry passes the client's address as its platform reports it.
 */
export type AppBindings = Partial<HttpBindings> & { clientAddress?: string };

export interface AppEnv {
  Bindings: AppBindings;
  Variables: AppVariables;
}

export type AppContext = Context<AppEnv>;
export type AppMiddleware = MiddlewareHandler<AppEnv>;
