/**
 * Offers in words and in cents (issue 34): a percentage or an amount off, once, for N months or
 * forever. Pure, shared by the server (the public terms, what checkout charges) and the pricing page
 * and cancel confirmation (what they show), so what a visitor reads is what they are charged.
 */
import { centsToDollars, formatDollars } from '../pricing.ts';

/** Cents as dollars (the pricing page's own formatting, so it ships nothing more). */
const formatCents = (cents: number) => formatDollars(centsToDollars(cents));

export const OFFER_KINDS = ['signup', 'retention'] as const;
export type OfferKind = (typeof OFFER_KINDS)[number];
export const OFFER_DURATIONS = ['once', 'repeating', 'forever'] as const;
export type OfferDuration = (typeof OFFER_DURATIONS)[number];

/** An offer's discount: exactly one of `percentOff` (1-99) and `amountOff` (cents). */
export interface OfferDiscount {
  percentOff: number | null;
  amountOff: number | null;
  duration: OfferDuration;
  durationInMonths: number | null;
}

/** Codes people type: letters, digits, dashes and underscores, 3 to 40, compared without case. */
export const OFFER_CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{2,39}$/;
export const normalizeCode = (code: string) => code.trim().toUpperCase();

/** An amount (cents) with the offer taken off, never below zero. */
export function discountedCents(amount: number, d: Pick<OfferDiscount, 'percentOff' | 'amountOff'>): number {
  if (d.percentOff) return Math.max(0, Math.round((amount * (100 - d.percentOff)) / 100));
  return Math.max(0, amount - (d.amountOff ?? 0));
}

/** "20% off", "$5.00 off". */
export const offerAmount = (d: Pick<OfferDiscount, 'percentOff' | 'amountOff'>) =>
  d.percentOff ? `${d.percentOff}% off` : `${formatCents(d.amountOff ?? 0)} off`;

/** The terms in words: "20% off your first payment", "… for 3 months", "… for as long as you stay subscribed". */
export function offerTerms(d: OfferDiscount): string {
  const amount = offerAmount(d);
  if (d.duration === 'once') return `${amount} your first payment`;
  if (d.duration === 'forever') return `${amount} for as long as you stay subscribed`;
  const months = d.durationInMonths ?? 1;
  return `${amount} for ${months === 1 ? 'the first month' : `${months} months`}`;
}
