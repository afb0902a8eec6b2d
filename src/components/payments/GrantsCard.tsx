/**
 * The account page's "Your access" card (issue 34): every grant the member's access rests on now or
 * soon, in words in the member's language ("Premium until 12 March 2027, a gift from Ana";
 * "Subscriber, monthly, renews 3 January"). Hidden for a member with none (free), while they load
 * and if they cannot be read: the Access Level card beside it still says the level.
 */
import { startTransition, useEffect, useState } from 'react';
import { describeGrant, grantLanguage, type GrantView } from '#shared/payments/grants.ts';
import { api, call } from '../../lib/browser/api.ts';

const HEADING = { en: 'Your access', es: 'Tu acceso', fr: 'Votre accès' } as const;

export function GrantsCard({ className, language }: { className: string; language: string | undefined }) {
  const [grants, setGrants] = useState<GrantView[]>([]);
  const lang = grantLanguage(language);

  useEffect(() => {
    const controller = new AbortController();
    call((o) => api.myGrants.index.$get({}, o), { signal: controller.signal })
      .then((result) => {
        if (result.ok)
          startTransition(() => setGrants((result.data as GrantView[]).filter((g) => g.active || Date.parse(g.startsAt) > Date.now())));
      })
      .catch(() => undefined); // aborted
    return () => controller.abort();
  }, []);

  if (grants.length === 0) return null;
  return (
    <section aria-labelledby="grants-heading" className={className} lang={lang}>
      <h2 id="grants-heading" className="text-lg font-semibold text-slate-900">
        {HEADING[lang]}
      </h2>
      <ul className="mt-4 divide-y divide-slate-100">
        {grants.map((g) => (
          <li key={g.id} className="py-3 text-sm text-slate-700">
            {describeGrant(g, lang)}
          </li>
        ))}
      </ul>
    </section>
  );
}
