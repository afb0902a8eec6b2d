/**
 * The embedded auth API at /auth/v1: the subset of Supabase Auth that supabase-js uses for email
 * accounts (contract sections 0-3), answering and failing exactly as the hosted service does, so the
 * browser's unmodified client works against either. Only JSON bodies; `redirect_to` in the query.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import type { AppContext, AppEnv } from '../platform/http/context.ts';
import { bodyProblem, clientIp } from '../platform/http/request.ts';
import { AuthError, authErrorResponse } from './errors.ts';
import { JWKS_MAX_AGE_SECONDS, type SigningKeys } from './keys.ts';
import { EmailBody, OtpBody, PasswordGrantBody, RefreshGrantBody, ResendBody, SignupBody, UpdateUserBody, VerifyBody } from './schema.ts';
import type { AuthService, Session } from './service.ts';

const MAX_BODY_BYTES = 1024 * 1024;

async function body<S extends z.ZodType>(c: AppContext, schema: S): Promise<z.output<S>> {
  let raw: unknown;
  try {
    const text = await c.req.text();
    raw = text.trim() ? JSON.parse(text) : {};
  } catch (err) {
    if (err instanceof AuthError) throw err;
    throw new AuthError(400, 'bad_json', `Could not parse request body as JSON: ${(err as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new AuthError(400, 'bad_json', 'Could not parse request body as JSON: expected an object');
  }
  // A lone surrogate ("\ud800") would reach Postgres in metadata or an address and fail there.
  const problem = bodyProblem(raw);
  if (problem) throw new AuthError(422, 'validation_failed', `Invalid body: ${problem.message}`);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AuthError(400, 'validation_failed', `Invalid ${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'not valid'}`);
  }
  return parsed.data;
}

/** The fragment GoTrue's implicit flow appends to the redirect target. */
function fragment(values: Record<string, string | number>): string {
  return new URLSearchParams({ ...Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])), sb: '' }).toString();
}

function sessionFragment(session: Session, type: string): string {
  return fragment({
    access_token: session.access_token,
    expires_at: session.expires_at,
    expires_in: session.expires_in,
    refresh_token: session.refresh_token,
    token_type: session.token_type,
    type,
  });
}

/** What the handlers beside the route chain read of a request. */
interface RouteContext {
  auth: AuthService;
  ip: (c: AppContext) => string;
  redirectParam: (c: AppContext) => string | undefined;
}

/** GET /verify, the link in the mail: performs the action and redirects with the session (or the error) in the fragment. */
async function verifyLink(c: AppContext, { auth, ip, redirectParam }: RouteContext) {
  const type = c.req.query('type');
  const token = c.req.query('token');
  if (!type) throw new AuthError(400, 'validation_failed', 'Verify requires a verification type');
  if (!token) throw new AuthError(400, 'validation_failed', 'Verify requires a token or a token hash');
  const target = auth.allowedRedirect(redirectParam(c));
  try {
    const result = await auth.verify({ type, tokenHash: token }, ip(c));
    if ('message' in result) return c.redirect(`${target}#${fragment({ message: result.message })}`, 303);
    return c.redirect(`${target}#${sessionFragment(result.session, result.type)}`, 303);
  } catch (err) {
    if (!(err instanceof AuthError) || err.status >= 500) throw err;
    const error = err.status === 403 ? 'access_denied' : 'invalid_request';
    return c.redirect(`${target}#${fragment({ error, error_code: err.code, error_description: err.message })}`, 303);
  }
}

/** POST /verify: a mailed code (with the address) or a link's token hash, answered with the session. */
async function verifyCode(c: AppContext, { auth, ip }: RouteContext) {
  const input = await body(c, VerifyBody);
  if (input.token && input.token_hash) throw new AuthError(400, 'validation_failed', 'Verify requires either a token or a token hash');
  if (input.token_hash && (input.email || input.phone || input.redirect_to)) {
    throw new AuthError(400, 'validation_failed', 'Only the token_hash and type should be provided');
  }
  const result = await auth.verify({ type: input.type, tokenHash: input.token_hash, email: input.email, code: input.token }, ip(c));
  return 'message' in result ? c.json({ msg: result.message, code: '200' }) : c.json(result.session);
}

/** GET /settings: what this server offers, as GoTrue says it (email accounts only). */
function publicSettings(auth: AuthService) {
  return {
    external: { email: true, phone: false, anonymous_users: false, google: false, github: false, apple: false },
    disable_signup: false,
    mailer_autoconfirm: auth.settings.autoconfirm,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
    passkeys_enabled: false,
  };
}

export function createAuthRoutes({ auth, keys, trustProxy }: { auth: AuthService; keys: SigningKeys; trustProxy: number }) {
  const ip = (c: AppContext) => clientIp(c, trustProxy);
  const redirectParam = (c: AppContext) => c.req.query('redirect_to');
  const ctx: RouteContext = { auth, ip, redirectParam };
  const app = new Hono<AppEnv>();

  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AuthError(413, 'request_entity_too_large', 'Request body too large');
      },
    }),
  );
  app.use(async (c, next) => {
    await next();
    c.header('Cache-Control', c.res.headers.get('Cache-Control') ?? 'no-store');
  });

  app.post('/signup', async (c) => {
    const result = await auth.signUp(await body(c, SignupBody), ip(c), redirectParam(c));
    return c.json(result.kind === 'session' ? result.session : result.user);
  });

  app.post('/token', async (c) => {
    const grant = c.req.query('grant_type');
    if (grant === 'password') return c.json(await auth.signInWithPassword(await body(c, PasswordGrantBody), ip(c)));
    if (grant === 'refresh_token') return c.json(await auth.refresh((await body(c, RefreshGrantBody)).refresh_token, ip(c)));
    throw new AuthError(400, 'invalid_credentials', 'unsupported_grant_type');
  });

  app.get('/user', async (c) => c.json(await auth.getUser(c.req.header('authorization'))));
  app.put('/user', async (c) =>
    c.json(await auth.updateUser(c.req.header('authorization'), await body(c, UpdateUserBody), ip(c), redirectParam(c))),
  );

  // GoTrue's secure password change: a code mailed to the owner, sent back as `nonce` with the new password.
  app.get('/reauthenticate', async (c) => {
    await auth.reauthenticate(c.req.header('authorization'), ip(c));
    return c.json({});
  });

  app.post('/logout', async (c) => {
    await auth.logout(c.req.header('authorization'), c.req.query('scope') ?? 'global');
    return c.body(null, 204);
  });

  app.post('/recover', async (c) => {
    await auth.recover((await body(c, EmailBody)).email, ip(c), redirectParam(c));
    return c.json({});
  });

  app.post('/resend', async (c) => {
    await auth.resend(await body(c, ResendBody), ip(c), redirectParam(c));
    return c.json({});
  });

  app.post('/otp', async (c) => {
    const input = await body(c, OtpBody);
    if (!input.email) throw new AuthError(400, 'validation_failed', 'An email address or phone number is required');
    await auth.sendSignInLink(input, ip(c), redirectParam(c));
    return c.json({});
  });

  // The link in the mail: performs the action and redirects with the session (or the error) in the fragment.
  app.get('/verify', (c) => verifyLink(c, ctx));
  app.post('/verify', (c) => verifyCode(c, ctx));
  app.get('/settings', (c) => c.json(publicSettings(auth)));

  app.get('/.well-known/jwks.json', (c) => c.json(keys.jwks(), 200, { 'Cache-Control': `public, max-age=${JWKS_MAX_AGE_SECONDS}` }));

  app.all('*', () => {
    throw new AuthError(404, 'not_found', 'This endpoint is not available on this server');
  });
  app.onError((err, c) => {
    if (err instanceof AuthError) return authErrorResponse(c, err);
    c.get('log')().error({ err, path: c.req.path }, 'auth request failed');
    return authErrorResponse(c, new AuthError(500, 'unexpected_failure', 'Something went wrong on our side. Please try again.'));
  });
  return app;
}
