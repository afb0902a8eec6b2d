/**
 * The payment confirmation page (spec point 2 "Payment confirmation", point 4): reads session_id
 * and payment_status from the address; loading, then success ('Your new access level', 'Continue to
 * Dashboard') or error ('Return to Home'); the button is disabled while loading. Without a
 * session_id it says so and asks nothing. The server checks the session with the provider, so
 * payment_status is only what the provider's redirect said, never trusted. On success the stored
 * level moves to the one the server answered, and a loaded auth client reads the profile again. A
 * purchase refused because its item was unpublished meanwhile shows the server's refund message.
 */
import { useEffect, useState } from 'react';
import { accessLabel } from '#shared/access.ts';
import { announceProfileChange } from '../../lib/browser/auth/profile-events.ts';
import { confirmPayment, purchasePath, readConfirmationQuery, type ConfirmedPayment } from '../../lib/browser/payments/client.ts';
import { REFUNDED_DUPLICATE, REFUSED_PURCHASE } from '#shared/payments/purchasable.ts';
import { STORAGE_KEYS, writeStored } from '../../lib/browser/storage-keys.ts';

export const NO_PAYMENT_INFO = 'No payment information found. Please try again.';
export const CONFIRM_FAILED = 'There was a problem confirming your payment. Please contact support.';

type State =
  { status: 'loading' } | { status: 'success'; payment: ConfirmedPayment } | { status: 'error'; message: string; signedOut: boolean };

const BUTTON =
  'min-h-12 rounded-lg bg-brand-600 px-6 py-3 font-semibold text-white hover:bg-brand-700 disabled:cursor-wait disabled:opacity-60';

function initialState(): State {
  const { sessionId } = readConfirmationQuery(window.location.search);
  return sessionId ? { status: 'loading' } : { status: 'error', message: NO_PAYMENT_INFO, signedOut: false };
}

function Icon({ status }: { status: State['status'] }) {
  if (status === 'loading')
    return <span aria-hidden="true" className="h-12 w-12 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600" />;
  const ok = status === 'success';
  return (
    <span
      aria-hidden="true"
      className={`grid h-14 w-14 place-items-center rounded-full ${ok ? 'bg-emerald-100 text-emerald-700' : 'bg-red-100 text-red-700'}`}
    >
      <svg
        viewBox="0 0 24 24"
        className="h-7 w-7"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        {ok ? <path d="m5 12 5 5 9-10" /> : <path d="M12 8v5m0 3.5v.01M12 3l10 18H2L12 3Z" />}
      </svg>
    </span>
  );
}

export default function PaymentConfirmation() {
  const [state, setState] = useState<State>(initialState);

  useEffect(() => {
    const { sessionId } = readConfirmationQuery(window.location.search);
    if (!sessionId) return; // spec point 5: no call without a session id
    const controller = new AbortController();
    confirmPayment(sessionId, controller.signal)
      .then((result) => {
        if (!result.ok) {
          // An item unpublished while the member paid: the server refunded it and says so.
          const refunded =
            result.kind === 'error' && result.status === 409 && [REFUSED_PURCHASE, REFUNDED_DUPLICATE].includes(result.message);
          return setState({
            status: 'error',
            message: refunded && result.kind === 'error' ? result.message : CONFIRM_FAILED,
            signedOut: result.kind === 'signed-out',
          });
        }
        writeStored(STORAGE_KEYS.accessLevel, result.data.accessLevel);
        announceProfileChange();
        setState({ status: 'success', payment: result.data });
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, []);

  const here = `${window.location.pathname}${window.location.search}`;
  const purchase = state.status === 'success' ? state.payment.purchase : undefined;

  return (
    <div className="flex flex-col items-center gap-5 text-center" data-state={state.status}>
      <Icon status={state.status} />
      <div role="status" aria-live="polite" className="flex flex-col items-center gap-3">
        {state.status === 'loading' && (
          <>
            <h1 className="text-3xl font-bold tracking-tight text-ink">Confirming your payment…</h1>
            <p className="text-slate-600">Please wait while we confirm your payment with our payment provider.</p>
          </>
        )}
        {state.status === 'success' && (
          <>
            <h1 className="text-3xl font-bold tracking-tight text-ink">Payment Successful!</h1>
            <p className="text-slate-600">Thank you. Your payment has been confirmed and a receipt is on its way to your inbox.</p>
            {purchase && (
              <p className="text-slate-700" data-testid="purchased-item">
                You bought{' '}
                <a href={purchasePath(purchase.type, purchase.slug)} className="font-semibold text-brand-700 underline">
                  {purchase.title}
                </a>
                . It is yours to open whenever you like.
              </p>
            )}
            <div className="mt-2 rounded-2xl border border-slate-200 bg-slate-50 px-8 py-4">
              <p className="text-sm font-medium text-slate-600">Your new access level</p>
              <p className="mt-1 text-2xl font-bold text-ink" data-testid="new-access-level">
                {accessLabel(state.payment.accessLevel)}
              </p>
            </div>
          </>
        )}
        {state.status === 'error' && (
          <>
            <h1 className="text-3xl font-bold tracking-tight text-ink">Payment Not Confirmed</h1>
            <p className="max-w-md text-red-800">{state.message}</p>
            {state.signedOut && (
              <p className="text-slate-600">
                <a href={`/signin?redirect=${encodeURIComponent(here)}`} className="font-semibold text-brand-700 underline">
                  Sign in
                </a>{' '}
                with the account you paid with, and we will confirm it again.
              </p>
            )}
          </>
        )}
      </div>
      <button type="button" className={`${BUTTON} mt-2`} disabled={state.status === 'loading'} onClick={() => window.location.assign('/')}>
        {state.status === 'error' ? 'Return to Home' : 'Continue to Dashboard'}
      </button>
    </div>
  );
}
