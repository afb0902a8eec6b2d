/**
 * The embedded test provider's checkout page (what Stripe's hosted checkout does): the order
 * summary, card number / expiry / CVC with errors next to each field, Pay with a processing state,
 * a declined card's message inline, and Cancel back to where checkout started. The page around it
 * carries the TEST banner and the test cards. The session id in `?session=` is the capability.
 */
import { useRef, useState, type FormEvent, type RefObject } from 'react';
import { formatPlanAmount } from '#shared/payments/display.ts';
import {
  cardErrors,
  checkCard,
  failureMessage,
  fetchTestCheckout,
  formatCardNumber,
  formatExpiry,
  payTestCheckout,
  type CardErrors,
  type CardInput,
  type CardField as Field,
  type TestCheckout as Checkout,
} from '../../lib/browser/payments/test-provider.ts';
import { CardField } from './CardField.tsx';
import { sameOriginUrl } from './test-pages.ts';
import { useSessionLoad } from './use-session-load.ts';
import { LoadFailure, LoadingLines } from '../content/gated/LoadStates.tsx';

const NOT_FOUND = 'This checkout link is not valid. Start again from the page you were buying from.';

function Summary({ checkout }: { checkout: Checkout }) {
  return (
    <section aria-labelledby="order-heading" className="rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-200">
      <h2 id="order-heading" className="text-lg font-semibold text-ink">
        Order summary
      </h2>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="text-slate-600">Product</dt>
        <dd className="font-semibold text-slate-900" data-testid="checkout-product">
          {checkout.productName}
        </dd>
        <dt className="text-slate-600">Amount</dt>
        <dd className="text-slate-900" data-testid="checkout-amount">
          {formatPlanAmount(checkout.amount, checkout.interval)}
        </dd>
        {checkout.offer && (
          <>
            <dt className="text-slate-600">Offer</dt>
            <dd className="text-slate-900">{checkout.offer}</dd>
          </>
        )}
        {checkout.trialDays > 0 && (
          <>
            <dt className="text-slate-600">Free trial</dt>
            <dd className="text-slate-900">{`${checkout.trialDays} days, then ${formatPlanAmount(checkout.amount, checkout.interval)}`}</dd>
          </>
        )}
        {checkout.dueToday !== checkout.amount && (
          <>
            <dt className="text-slate-600">Due today</dt>
            <dd className="font-semibold text-slate-900" data-testid="checkout-due">
              {formatPlanAmount(checkout.dueToday, null)}
            </dd>
          </>
        )}
        <dt className="text-slate-600">Billing</dt>
        <dd className="text-slate-900">{checkout.interval ? `Renews every ${checkout.interval} until you cancel` : 'One-time payment'}</dd>
        {checkout.email && (
          <>
            <dt className="text-slate-600">Account</dt>
            <dd className="break-all text-slate-900">{checkout.email}</dd>
          </>
        )}
      </dl>
    </section>
  );
}

function PayForm({ checkout }: { checkout: Checkout }) {
  const [card, setCard] = useState<CardInput>({ cardNumber: '', expiry: '', cvc: '' });
  const [errors, setErrors] = useState<CardErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [processing, setProcessing] = useState(false);
  const numberRef = useRef<HTMLInputElement>(null);
  const expiryRef = useRef<HTMLInputElement>(null);
  const cvcRef = useRef<HTMLInputElement>(null);

  const focusFirst = (found: CardErrors) => {
    const first = (['cardNumber', 'expiry', 'cvc'] as Field[]).find((f) => found[f]);
    if (first) ({ cardNumber: numberRef, expiry: expiryRef, cvc: cvcRef })[first].current?.focus();
  };

  async function pay(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const found = checkCard(card);
    setErrors(found);
    if (Object.keys(found).length) return focusFirst(found);
    setProcessing(true);
    const result = await payTestCheckout(checkout.id, card);
    if (result.ok) return window.location.assign(sameOriginUrl(result.data.redirectUrl, '/')); // keeps 'Processing...'
    setProcessing(false);
    const fields = cardErrors(result);
    if (fields) {
      setErrors(fields);
      focusFirst(fields);
    } else setProblem(failureMessage(result));
  }

  const set = (field: Field, value: string) => {
    setCard((c) => ({ ...c, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  return (
    <form onSubmit={(e) => void pay(e)} noValidate aria-label="Card details" className="flex flex-col gap-4">
      <CardFields card={card} errors={errors} refs={{ number: numberRef, expiry: expiryRef, cvc: cvcRef }} onSet={set} />
      <div aria-live="assertive">
        {problem && (
          <p className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800" data-testid="payment-error">
            {problem}
          </p>
        )}
      </div>
      <button
        type="submit"
        disabled={processing}
        className="min-h-12 rounded-lg bg-brand-600 px-5 py-3 font-semibold text-white hover:bg-brand-700 disabled:cursor-wait disabled:opacity-60"
      >
        {processing ? 'Processing...' : checkout.trialDays > 0 ? 'Start free trial' : `Pay ${formatPlanAmount(checkout.dueToday, null)}`}
      </button>
      <a href={sameOriginUrl(checkout.cancelUrl, '/')} className="self-center text-sm font-semibold text-brand-700 underline">
        Cancel and return
      </a>
    </form>
  );
}

type CardFieldsProps = {
  card: CardInput;
  errors: CardErrors;
  refs: Record<'number' | 'expiry' | 'cvc', RefObject<HTMLInputElement | null>>;
  onSet: (field: Field, value: string) => void;
};

/** Card number, expiry and CVC, each formatted as typed and with its error beside it. */
function CardFields({ card, errors, refs, onSet }: CardFieldsProps) {
  return (
    <>
      <CardField
        label="Card number"
        inputRef={refs.number}
        value={card.cardNumber}
        onChange={(e) => onSet('cardNumber', formatCardNumber(e.target.value))}
        error={errors.cardNumber}
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
      />
      <div className="grid grid-cols-2 gap-4">
        <CardField
          label="Expiry"
          hint="MM/YY"
          inputRef={refs.expiry}
          value={card.expiry}
          onChange={(e) => onSet('expiry', formatExpiry(e.target.value))}
          error={errors.expiry}
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="12/34"
        />
        <CardField
          label="CVC"
          inputRef={refs.cvc}
          value={card.cvc}
          onChange={(e) => onSet('cvc', e.target.value.replace(/\D/g, '').slice(0, 4))}
          error={errors.cvc}
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
        />
      </div>
    </>
  );
}

export default function TestCheckout() {
  const { load, retry } = useSessionLoad(fetchTestCheckout, NOT_FOUND);

  if (load.status === 'loading') return <LoadingLines label="Loading the checkout…" lines={4} />;
  if (load.status === 'failed') return <LoadFailure message={load.message} onRetry={load.retry ? retry : undefined} />;
  const checkout = load.data;
  return (
    <div className="grid gap-8 md:grid-cols-2">
      <Summary checkout={checkout} />
      <section aria-labelledby="pay-heading">
        <h2 id="pay-heading" className="text-lg font-semibold text-ink">
          Pay with card
        </h2>
        <div className="mt-4">
          {checkout.status === 'open' && <PayForm checkout={checkout} />}
          {checkout.status === 'complete' && (
            <p className="rounded-lg bg-emerald-50 p-4 text-emerald-900">
              This checkout has already been paid.{' '}
              <a href="/account" className="font-semibold underline">
                Go to your account
              </a>
            </p>
          )}
          {checkout.status === 'expired' && (
            <p className="rounded-lg bg-slate-100 p-4 text-slate-800">
              This checkout has expired. Nothing was charged.{' '}
              <a href={sameOriginUrl(checkout.cancelUrl, '/')} className="font-semibold underline">
                Start again
              </a>
            </p>
          )}
        </div>
      </section>
    </div>
  );
}
