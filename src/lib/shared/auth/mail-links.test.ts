import { describe, expect, it } from 'vitest';
import { codeError, linkProblem, mailRequestError, passwordHeld, readLanding, signedInNotice, signInMethods } from './mail-links.ts';

/** A token-shaped string whose payload is `claims` (the signature is not read). */
const token = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

describe('reading a mailed link’s landing', () => {
  it('reads the session and its type', () => {
    expect(readLanding('#access_token=abc&expires_in=3600&refresh_token=r&token_type=bearer&type=signup&sb=')).toEqual({
      kind: 'session',
      type: 'signup',
    });
  });

  it('reads the error GoTrue puts in the fragment', () => {
    const hash = '#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&sb=';
    expect(readLanding(hash)).toEqual({ kind: 'failed', code: 'otp_expired', description: 'Email link is invalid or has expired' });
    expect(readLanding('#error_description=Something+broke')).toMatchObject({ kind: 'failed', code: '' });
  });

  it('reads the message of a first email-change link, and nothing from an ordinary page', () => {
    expect(readLanding('#message=Confirmation+link+accepted&sb=')).toEqual({ kind: 'message', text: 'Confirmation link accepted' });
    expect(readLanding('')).toBeUndefined();
    expect(readLanding('#main')).toBeUndefined();
  });
});

describe('plain words', () => {
  it('says an expired, used or replaced link no longer works, and offers a new one', () => {
    const { title, description } = linkProblem('otp_expired', 'Email link is invalid or has expired');
    expect(title).toBe('This link no longer works');
    expect(description).toMatch(/expired, was already used, or a newer email replaced it/);
    expect(linkProblem('', 'Email link is invalid or has expired').title).toBe('This link no longer works');
    expect(linkProblem('over_request_rate_limit', 'Request rate limit reached').title).toBe('Too many attempts');
    expect(linkProblem('email_exists', 'A user with this email address has already been registered').description).toMatch(
      /^A user with this email address has already been registered\. You can ask/,
    );
  });

  it('names what each link signed the visitor in to', () => {
    expect(signedInNotice('signup')?.title).toBe('Email confirmed');
    expect(signedInNotice('magiclink')?.title).toBe('Signed in');
    expect(signedInNotice('recovery')).toBeUndefined();
  });

  it('names the wait of the mail that was asked for', () => {
    const cooldown = { code: 'over_email_send_rate_limit', message: 'For security purposes, you can only request this after 42 seconds.' };
    expect(mailRequestError(cooldown, 'reset link')).toBe('We sent you a reset link a moment ago. You can ask for another in 42 seconds.');
    expect(mailRequestError(cooldown, 'sign-in link')).toMatch(/^We sent you a sign-in link .* in 42 seconds\.$/);
    expect(mailRequestError({ ...cooldown, message: 'email rate limit exceeded' }, 'reset link')).toMatch(/in a minute\.$/);
    expect(mailRequestError({ code: 'over_request_rate_limit', message: 'Request rate limit reached' }, 'reset link')).toMatch(/network/);
    expect(mailRequestError({ code: 'validation_failed', message: 'Unable to validate email address: invalid format' }, 'reset link')).toBe(
      'Unable to validate email address: invalid format',
    );
  });

  it('says a wrong code plainly and passes the guessing limit’s own words on', () => {
    expect(codeError({ code: 'otp_expired', message: 'Token has expired or is invalid' })).toMatch(/^That code is wrong or has expired/);
    const limited = 'Too many wrong codes for this account. Use the link in the email instead, or try again in 20 hours.';
    expect(codeError({ code: 'over_request_rate_limit', message: limited, status: 429 })).toBe(limited);
  });
});

describe('a password that is not enough', () => {
  it('keeps the guessing limits’ own words, says the bare request limit plainly, and leaves other refusals to the toast', () => {
    const held =
      'Too many wrong passwords were tried for this account, so signing in from a new network now needs a link or code sent to your email.';
    expect(passwordHeld({ code: 'over_request_rate_limit', message: held, status: 429 })).toBe(held);
    expect(passwordHeld({ code: 'over_request_rate_limit', message: 'Request rate limit reached', status: 429 })).toMatch(
      /^Too many requests/,
    );
    expect(passwordHeld({ code: 'invalid_credentials', message: 'Invalid login credentials', status: 400 })).toBeUndefined();
  });
});

describe('sign-in methods of a session', () => {
  it('reads the amr claim, and nothing from a token it cannot read', () => {
    expect(signInMethods(token({ amr: [{ method: 'recovery', timestamp: 1 }] }))).toEqual(['recovery']);
    expect(signInMethods(token({ amr: ['otp'] }))).toEqual(['otp']);
    expect(signInMethods(token({}))).toEqual([]);
    expect(signInMethods('not a token')).toEqual([]);
  });
});
