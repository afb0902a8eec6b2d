/**
 * The pricing page with an offer (issue 34): `/pricing?offer=CODE` reads the sign-up offer's public
 * terms, says them above the plans ("Offer LAUNCH: 20% off for 3 months"), shows each plan it covers
 * at its discounted price with the full price beside it, and hands the code to checkout for those
 * plans. A code that is unknown, expired or used up says so, and the page sells at its own prices.
 * Plans with a free trial say so under their price (GET /api/payments/trials), unless an offer
 * covers them: the offer is the incentive in place of the trial, as checkout decides.
 */
import { centsToDollars, formatDollars } from '#shared/pricing.ts';
import { OFFER_CODE } from '#shared/payments/offers.ts';
import { publicApi } from '../../lib/browser/api.ts';

const formatCents = (cents: number) => formatDollars(centsToDollars(cents));

export interface PricingOffer {
  code: string;
  /** The tier ids it covers. */
  covers: (priceId: string) => boolean;
}

const byPriceId = (root: HTMLElement, priceId: string) =>
  [...root.querySelectorAll<HTMLElement>('article[data-plan-month]')]
    .map((card) => ({
      card,
      interval: card.dataset.planMonth === priceId ? ('month' as const) : card.dataset.planYear === priceId ? ('year' as const) : null,
    }))
    .find((c) => c.interval);

async function readOffer(code: string) {
  try {
    const res = await publicApi.offers[':code'].$get({ param: { code } });
    return res.ok
      ? ((await res.json()) as {
          code: string;
          terms: string;
          expiresAt: string | null;
          plans: { priceId: string; amount: number; discounted: number }[];
        })
      : null;
  } catch {
    return null;
  }
}

/** Shows the offer named in the address, if any, and answers what checkout needs of it. */
export async function showOffer(root: HTMLElement, swapTexts: () => void): Promise<PricingOffer | undefined> {
  const code = new URLSearchParams(window.location.search).get('offer')?.trim() ?? '';
  const banner = root.querySelector<HTMLElement>('[data-offer]');
  if (!code || !banner) return undefined;
  const offer = OFFER_CODE.test(code) ? await readOffer(code) : null;
  banner.hidden = false;
  if (!offer) {
    banner.textContent = 'This offer code is not valid or has ended. The plans below are at their usual prices.';
    return undefined;
  }
  const ends = offer.expiresAt ? ` Offer ends ${new Date(offer.expiresAt).toLocaleDateString('en-US', { dateStyle: 'long' })}.` : '';
  banner.textContent = `Offer ${offer.code}: ${offer.terms}.${ends}`;
  for (const plan of offer.plans) {
    const found = byPriceId(root, plan.priceId);
    if (!found?.interval) continue;
    const price = found.card.querySelector<HTMLElement>('[data-price]');
    const note = found.card.querySelector<HTMLElement>('[data-note]');
    if (price) price.dataset[found.interval] = formatCents(plan.discounted);
    if (note)
      note.dataset[found.interval] = `Usually ${formatCents(plan.amount)}. ${offer.terms[0]!.toUpperCase()}${offer.terms.slice(1)}.`;
    found.card.dataset[found.interval === 'month' ? 'offerMonth' : 'offerYear'] = offer.code;
  }
  swapTexts();
  const covered = new Set(offer.plans.map((p) => p.priceId));
  return { code: offer.code, covers: (priceId) => covered.has(priceId) };
}

/** Says "Starts with a N-day free trial" under the price of plans that have one (and no offer). */
export async function showTrials(
  root: HTMLElement,
  offer: PricingOffer | undefined,
  interval: () => 'month' | 'year',
): Promise<() => void> {
  let trials: Record<string, number> = {};
  try {
    const res = await publicApi.payments.trials.$get({});
    if (res.ok) trials = ((await res.json()) as { trials: Record<string, number> }).trials;
  } catch {
    // No trial notes; checkout still decides.
  }
  const mark = () => {
    for (const card of root.querySelectorAll<HTMLElement>('article[data-plan-month]')) {
      const el = card.querySelector<HTMLElement>('[data-trial]');
      const priceId = (interval() === 'year' ? card.dataset.planYear : card.dataset.planMonth) ?? '';
      const days = offer?.covers(priceId) ? 0 : (trials[priceId] ?? 0);
      if (!el) continue;
      el.hidden = days === 0;
      el.textContent = days ? `Starts with a ${days}-day free trial for new members.` : '';
    }
  };
  mark();
  return mark;
}
