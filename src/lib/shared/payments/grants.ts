/**
 * A grant of access in words, in the member's language: the account page's list of what their access
 * rests on, and the mails that one ends soon or ended. Pure, shared by the browser and the server.
 */
import { LANGUAGES, type Language } from '../languages.ts';

/** A grant is described in every language the product speaks to members in. */
export type GrantLanguage = Language;

/** A grant as GET /api/payments/grants answers it. */
export interface GrantView {
  id: string;
  accessLevel: 'subscriber' | 'premium';
  source: 'subscription' | 'purchase' | 'comp' | 'gift' | 'trial' | 'offer';
  startsAt: string;
  endsAt: string | null;
  /** Gives access now. */
  active: boolean;
  /** A gift's buyer, as they signed it. */
  from?: string | undefined;
  /** A subscription's cadence and next renewal (subscription, trial and offer rows). */
  interval?: string | undefined;
  renewsAt?: string | undefined;
  /** The subscription is set to end at its period end. */
  cancelling?: boolean | undefined;
}

const LOCALE: Record<GrantLanguage, string> = { en: 'en-GB', es: 'es-ES', fr: 'fr-FR' };

const LEVEL: Record<GrantLanguage, Record<GrantView['accessLevel'], string>> = {
  en: { subscriber: 'Subscriber', premium: 'Premium' },
  es: { subscriber: 'Suscriptor', premium: 'Premium' },
  fr: { subscriber: 'Abonné', premium: 'Premium' },
};

interface Words {
  cadence: Record<string, string>;
  renews: (date: string) => string;
  ends: (date: string) => string;
  until: (date: string) => string;
  from: (date: string) => string;
  noEnd: string;
  ended: string;
  trial: string;
  offer: string;
  comp: string;
  gift: (name: string | undefined) => string;
  purchase: string;
}

const WORDS: Record<GrantLanguage, Words> = {
  en: {
    cadence: { month: 'monthly', year: 'yearly' },
    renews: (d) => `renews ${d}`,
    ends: (d) => `ends ${d}`,
    until: (d) => `until ${d}`,
    from: (d) => `from ${d}`,
    noEnd: 'no end date',
    ended: 'ended',
    trial: 'free trial',
    offer: 'at an offer price',
    comp: 'complimentary',
    gift: (name) => (name ? `a gift from ${name}` : 'a gift'),
    purchase: 'bought once',
  },
  es: {
    cadence: { month: 'mensual', year: 'anual' },
    renews: (d) => `se renueva el ${d}`,
    ends: (d) => `termina el ${d}`,
    until: (d) => `hasta el ${d}`,
    from: (d) => `desde el ${d}`,
    noEnd: 'sin fecha de fin',
    ended: 'terminado',
    trial: 'prueba gratuita',
    offer: 'con precio de oferta',
    comp: 'de cortesía',
    gift: (name) => (name ? `un regalo de ${name}` : 'un regalo'),
    purchase: 'compra única',
  },
  fr: {
    cadence: { month: 'mensuel', year: 'annuel' },
    renews: (d) => `renouvelé le ${d}`,
    ends: (d) => `se termine le ${d}`,
    until: (d) => `jusqu’au ${d}`,
    from: (d) => `à partir du ${d}`,
    noEnd: 'sans date de fin',
    ended: 'terminé',
    trial: 'essai gratuit',
    offer: 'à prix d’offre',
    comp: 'offert',
    gift: (name) => (name ? `un cadeau de ${name}` : 'un cadeau'),
    purchase: 'achat unique',
  },
};

/** The language to use for a stored choice (anything else reads in English). */
export const grantLanguage = (value: string | null | undefined): GrantLanguage =>
  (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as GrantLanguage) : 'en';

/** A level's name in the language. */
export const levelName = (level: GrantView['accessLevel'], lang: GrantLanguage) => LEVEL[lang][level];

/** "12 March 2027", or "3 January" within the year of `now`. */
export function grantDate(iso: string, lang: GrantLanguage, now = new Date()): string {
  const date = new Date(iso);
  const sameYear = date.getUTCFullYear() === now.getUTCFullYear();
  return new Intl.DateTimeFormat(LOCALE[lang], {
    day: 'numeric',
    month: 'long',
    ...(sameYear ? {} : { year: 'numeric' }),
    timeZone: 'UTC',
  }).format(date);
}

/**
 * One grant in words: "Premium until 12 March 2027, a gift from Ana"; "Subscriber, monthly, renews 3
 * January"; "Premium, complimentary, no end date". A row not yet started says from when; an ended one says so.
 */
export function describeGrant(g: GrantView, lang: GrantLanguage, now = new Date()): string {
  const w = WORDS[lang];
  const date = (iso: string) => grantDate(iso, lang, now);
  const level = LEVEL[lang][g.accessLevel];
  const started = new Date(g.startsAt) <= now;
  const ended = g.endsAt !== null && new Date(g.endsAt) <= now;
  if (g.source === 'subscription' || g.source === 'offer') {
    const parts = [level, ...(g.interval && Object.hasOwn(w.cadence, g.interval) ? [w.cadence[g.interval]!] : [])];
    if (g.source === 'offer') parts.push(w.offer);
    if (ended) parts.push(w.ended);
    else if (g.endsAt || g.cancelling) parts.push(w.ends(date(g.endsAt ?? g.renewsAt!)));
    else if (g.renewsAt) parts.push(w.renews(date(g.renewsAt)));
    return parts.join(', ');
  }
  // A running trial's row stays open while the provider runs it: its end is the subscription's first charge.
  if (g.source === 'trial' && !g.endsAt && g.renewsAt) return `${level} ${w.until(date(g.renewsAt))}, ${w.trial}`;
  const reason = g.source === 'trial' ? w.trial : g.source === 'comp' ? w.comp : g.source === 'gift' ? w.gift(g.from) : w.purchase;
  const span = [started ? '' : w.from(date(g.startsAt)), g.endsAt ? w.until(date(g.endsAt)) : ''].filter(Boolean).join(' ');
  if (!g.endsAt) return [level, reason, w.noEnd].join(', ');
  return `${level} ${span}, ${reason}${ended ? ` (${w.ended})` : ''}`;
}
