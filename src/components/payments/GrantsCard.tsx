/**
 * The account page's "Your access" card (issue 34): every grant the member's access rests on now or
 * soon, in words in the member's language ("Premium until 12 March 2027, a gift from Ana";
 * "Subscriber, monthly, renews 3 January"). A member at a paid level has one, so until the grants
 * load the card keeps the room of one line (GrantsSkeleton, also in the page's skeleton); a free
 * member's page has no card. Gone when they cannot be read: the Access Level card still says the level.
 */
import { startTransition, useEffect, useState } from 'react';
import type { AccessLevel } from '#shared/access.ts';
import { describeGrant, grantLanguage, type GrantLanguage, type GrantView } from '#shared/payments/grants.ts';
import { api, call } from '../../lib/browser/api.ts';
import type { AccountGuess } from '../auth/account-guess.tsx';
import { Reserved } from '../content/gated/LoadStates.tsx';

const HEADING = { en: 'Your access', es: 'Tu acceso', fr: 'Votre accès' } as const;
/** Shown only when the stored guess is a paid level (the page's inline script sets it). */
const PAID_ONLY = 'hidden in-data-[account-level=subscriber]:block in-data-[account-level=premium]:block';
const LINE = 'py-3 text-sm text-slate-700';

function Frame({ lang, items }: { lang: GrantLanguage; items: string[] }) {
  return (
    <>
      <h2 id="grants-heading" className="text-lg font-semibold text-slate-900">
        {HEADING[lang]}
      </h2>
      <ul className="mt-4 divide-y divide-slate-100">
        {items.map((text, i) => (
          <li key={i} className={LINE}>
            {text}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The card's room while the grants load: one line, for a paid level (a free member's page has no card). */
export function GrantsSkeleton({ guess, className }: { guess: AccountGuess; className: string }) {
  if (guess !== 'stored' && guess.level === 'free') return null;
  return (
    <section aria-hidden="true" className={`${className} ${guess === 'stored' ? PAID_ONLY : ''}`}>
      <Reserved>
        <Frame lang="en" items={['Premium, complimentary, no end date']} />
      </Reserved>
    </section>
  );
}

export function GrantsCard({ className, language, level }: { className: string; language: string | undefined; level: AccessLevel }) {
  const [grants, setGrants] = useState<GrantView[] | undefined>(undefined);
  const lang = grantLanguage(language);

  useEffect(() => {
    const controller = new AbortController();
    call((o) => api.myGrants.index.$get({}, o), { signal: controller.signal })
      .then((result) => {
        const shown = result.ok ? (result.data as GrantView[]).filter((g) => g.active || Date.parse(g.startsAt) > Date.now()) : [];
        startTransition(() => setGrants(shown));
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, []);

  if (grants === undefined) return <GrantsSkeleton guess={{ level, withPlan: false }} className={className} />;
  if (grants.length === 0) return null;
  return (
    <section aria-labelledby="grants-heading" className={className} lang={lang}>
      <Frame lang={lang} items={grants.map((g) => describeGrant(g, lang))} />
    </section>
  );
}
