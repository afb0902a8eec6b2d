import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  cardErrors,
  checkCard,
  failureMessage,
  firstFieldErrors,
  formatCardNumber,
  formatExpiry,
  fetchTestCheckout,
  payTestCheckout,
  worthRetry,
} from './test-provider.ts';
import { GENERIC_ERROR } from '../api-result.ts';

describe('the test card form', () => {
  it('groups card digits in fours and drops anything else', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4000-0000 0000 0002')).toBe('4000 0000 0000 0002');
    expect(formatCardNumber('42424')).toBe('4242 4');
    expect(formatCardNumber('1'.repeat(25)).replace(/\s/g, '')).toHaveLength(19);
  });

  it('writes the expiry as MM/YY while typing', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12/3');
    expect(formatExpiry('12/345')).toBe('12/34');
  });

  it('asks for every field before paying, and accepts well-formed ones', () => {
    expect(checkCard({ cardNumber: '', expiry: '', cvc: '' })).toEqual({
      cardNumber: 'Enter your card number.',
      expiry: 'Enter the expiry date.',
      cvc: 'Enter the security code.',
    });
    expect(checkCard({ cardNumber: '4242 42', expiry: '13/30', cvc: '1' })).toEqual({
      cardNumber: 'Your card number is incomplete.',
      expiry: 'Enter the expiry date as MM/YY.',
      cvc: "Your card's security code is incomplete.",
    });
    expect(checkCard({ cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' })).toEqual({});
  });

  it('keeps the first message of each card field the server named', () => {
    expect(firstFieldErrors({ cardNumber: ['Your card number is invalid.', 'x'], other: ['y'] })).toEqual({
      cardNumber: 'Your card number is invalid.',
    });
    expect(firstFieldErrors({ other: ['y'] })).toBeUndefined();
    expect(firstFieldErrors(undefined)).toBeUndefined();
  });
});

describe('paying', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('answers a declined card with its status and message, and field errors on 422', async () => {
    const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(answer(402, { error: { code: 'payment_required', message: 'Your card was declined.' } }))
      .mockResolvedValueOnce(
        answer(422, { error: { code: 'validation_failed', message: 'Check the card details.', fields: { cvc: ['Bad'] } } }),
      )
      .mockResolvedValueOnce(answer(200, { redirectUrl: '/payment/confirmation?session_id=cs_1' }));
    vi.stubGlobal('fetch', fetchMock);
    const card = { cardNumber: '4000 0000 0000 0002', expiry: '12/34', cvc: '123' };
    const declined = await payTestCheckout('cs_1', card);
    expect(declined).toEqual({ ok: false, kind: 'error', status: 402, code: 'payment_required', message: 'Your card was declined.' });
    expect(!declined.ok && cardErrors(declined)).toBeUndefined();
    const invalid = await payTestCheckout('cs_1', card);
    expect(invalid).toEqual({
      ok: false,
      kind: 'error',
      status: 422,
      code: 'validation_failed',
      message: 'Check the card details.',
      fields: { cvc: ['Bad'] },
    });
    expect(!invalid.ok && cardErrors(invalid)).toEqual({ cvc: 'Bad' });
    expect(await payTestCheckout('cs_1', card)).toEqual({ ok: true, data: { redirectUrl: '/payment/confirmation?session_id=cs_1' } });
    const [path, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(path).toBe('/api/payments/test/checkout/cs_1/pay');
    expect(JSON.parse(init.body as string)).toEqual(card);
    expect(init.headers).not.toHaveProperty('authorization');
  });

  it("shows the server's message below a 500, the generic one for a 5xx or no answer, and offers a retry only then", async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response(JSON.stringify({ error: { code: 'not_found', message: 'Not found' } }), { status: 404 }))
      .mockResolvedValueOnce(new Response(JSON.stringify({ error: { code: 'internal', message: 'On our side.' } }), { status: 500 }))
      .mockRejectedValueOnce(new TypeError('Failed to fetch'));
    vi.stubGlobal('fetch', fetchMock);
    const failures = [];
    for (let i = 0; i < 3; i++) {
      const result = await fetchTestCheckout('cs_1');
      if (result.ok) throw new Error('expected a failure');
      failures.push(result);
    }
    expect(failures.map(failureMessage)).toEqual(['Not found', GENERIC_ERROR, GENERIC_ERROR]);
    expect(failures.map(worthRetry)).toEqual([false, true, true]);
    expect(failures[0]).toMatchObject({ kind: 'not-found' });
    expect(failures[2]).not.toHaveProperty('status');
  });
});
