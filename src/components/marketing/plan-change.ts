/**
 * The pricing page for a signed-in member (beyond the spec, issue 18). Each tier shows what the
 * member can do with it, never 'Subscribe' to a tier at or below their own: 'Current Plan' on the
 * plan they pay for; 'Upgrade' (applied now, the prorated difference charged today) or 'Switch at
 * renewal' (applied when the period already paid for ends) on the others, as `planChange` in
 * src/lib/shared/pricing.ts decides; 'Starts {date}' on a change already scheduled; 'Included in your plan'
 * below a level given without a subscription (staff, an admin's grant). Choosing a tier opens
 * 'Change Your Plan', which changes the existing subscription: never a second checkout.
 * Vanilla, like pricing-plans.ts, so the page ships no framework.
 */
import { accessRank, type AccessLevel } from '#shared/access.ts';
import { changePlan, fetchMySubscription, type Subscription } from '../../lib/browser/payments/client.ts';
import { centsToDollars, findTier, formatDollars, planChange, type BillingInterval } from '#shared/pricing.ts';
import { STORAGE_KEYS, writeStored } from '../../lib/browser/storage-keys.ts';

const GRANTING = ['active', 'trialing', 'past_due'];
const FAILED = 'Failed to change your plan. Please try again.';
const PER: Record<BillingInterval, string> = { month: 'month', year: 'year' };

/** 'MMMM d, yyyy' (spec point 9) without a date library: the page's script budget is small. */
const longDate = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' }).format(new Date(iso));
const cents = (amount: number) => formatDollars(centsToDollars(amount));

interface Target {
  priceId: string;
  name: string;
  level: AccessLevel;
  interval: BillingInterval;
  card: HTMLElement;
}

/** A subscription that pays for one of our plans now. */
function paying(plan: Subscription | null): plan is Subscription & { priceId: string } {
  return Boolean(plan?.priceId && GRANTING.includes(plan.status) && findTier(plan.priceId));
}

/** The plan's interval as the pricing rules name it (the payment API answers it as a plain string). */
const intervalOf = (plan: Subscription): BillingInterval => (plan.plan.interval === 'year' ? 'year' : 'month');

function levelOf(priceId: string): AccessLevel {
  return findTier(priceId)?.accessLevel ?? 'free';
}

function targetOf(card: HTMLElement, interval: BillingInterval): Target {
  return {
    priceId: (interval === 'year' ? card.dataset.planYear : card.dataset.planMonth) ?? '',
    name: card.dataset.planName ?? '',
    level: (card.dataset.tier as AccessLevel | undefined) ?? 'free',
    interval,
    card,
  };
}

/** Which of the card's controls shows, and the label of a change or a note. */
type CardState = { show: 'action' | 'current' | 'change' | 'note'; label?: string };

function stateOf(target: Target, level: AccessLevel | null, plan: Subscription | null): CardState {
  if (paying(plan)) {
    if (target.priceId === plan.priceId) return { show: 'current' };
    const free = target.level === 'free';
    const scheduled = plan.scheduledChange?.priceId === target.priceId ? plan.scheduledChange.effectiveAt : undefined;
    const ending = free && plan.cancelAtPeriodEnd ? plan.currentPeriodEnd : undefined;
    if (scheduled ?? ending) return { show: 'note', label: `Starts ${longDate((scheduled ?? ending)!)}` };
    const from = { accessLevel: levelOf(plan.priceId), interval: intervalOf(plan) };
    const direction = planChange(from, { accessLevel: target.level, interval: free ? from.interval : target.interval });
    return { show: 'change', label: direction === 'up' ? 'Upgrade' : 'Switch at renewal' };
  }
  if (!level) return { show: 'action' };
  if (target.level === level) return { show: 'current' };
  return accessRank(target.level) < accessRank(level) ? { show: 'note', label: 'Included in your plan' } : { show: 'action' };
}

/** What 'Change Your Plan' says before the member confirms, and its button. */
function describe(plan: Subscription & { priceId: string }, target: Target, price: string): { summary: string; action: string } {
  const until = longDate(plan.currentPeriodEnd);
  if (target.level === 'free')
    return {
      summary: `Your ${plan.plan.name} plan ends on ${until}, the end of the period you have paid for, and you will not be charged again. After that your account is on the free level.`,
      action: 'Switch to Free at renewal',
    };
  const from = { accessLevel: levelOf(plan.priceId), interval: intervalOf(plan) };
  const resume = plan.cancelAtPeriodEnd ? ' Your cancellation is withdrawn: the plan continues.' : '';
  if (planChange(from, { accessLevel: target.level, interval: target.interval }) === 'down')
    return {
      summary: `You keep your ${plan.plan.name} plan until ${until}, the end of the period you have paid for. Then it changes to ${target.name} at ${price}. Nothing is charged today.${resume}`,
      action: `Switch to ${target.name} at renewal`,
    };
  const now =
    from.interval === target.interval
      ? `Today you pay the difference for the rest of your current period (prorated); from ${until} you pay ${price}.`
      : `A new ${PER[target.interval]}ly period starts today: you pay ${price}, less the unused part of your current period.`;
  return {
    summary: `Your plan changes from ${plan.plan.name} to ${target.name} now, and everything it includes opens at once. ${now}${resume}`,
    action: `Upgrade to ${target.name}`,
  };
}

function outcome(result: { change: string; charged?: number; subscription: Subscription }, target: Target): string {
  const s = result.subscription;
  if (result.change === 'upgraded')
    return `You are on ${target.name} now.${result.charged ? ` We charged ${cents(result.charged)} today for the rest of your current period.` : ''}`;
  if (result.change === 'kept') return `You keep your ${s.plan.name} plan.`;
  if (target.level === 'free') return `Your plan ends on ${longDate(s.currentPeriodEnd)}. Until then you keep everything it includes.`;
  return `Your plan changes to ${target.name} on ${longDate(s.scheduledChange?.effectiveAt ?? s.currentPeriodEnd)}. Until then you keep everything your current plan includes.`;
}

export interface PlanChanges {
  /** Reads the member's plan and labels the tiers by it. */
  load(): Promise<void>;
  /** Labels the tiers for the member's level (null: a visitor) and plan, at the chosen interval. */
  mark(level?: AccessLevel | null): void;
  /** Whether the member pays for a plan (a choice is a change, not a checkout). */
  paying(): boolean;
  /** The interval of the plan the member pays for. */
  interval(): BillingInterval | null;
  /** Opens 'Change Your Plan' for a tier id (back from signing in, or a checkout the server refused). */
  openFor(priceId: string): boolean;
}

export interface PlanChangesOptions {
  root: HTMLElement;
  panel: HTMLElement;
  /** The checkout panel, closed when a change opens. */
  checkout: HTMLElement;
  interval: () => BillingInterval;
}

/** Shows one of a tier card's controls (`show`), labelled with `label` when it is the change button or the note. */
function showControl(card: HTMLElement, { show, label }: CardState) {
  const controls = {
    action: card.querySelector<HTMLElement>('[data-plan-action]'),
    current: card.querySelector<HTMLElement>('[data-current-plan]'),
    change: card.querySelector<HTMLElement>('[data-plan-change]'),
    note: card.querySelector<HTMLElement>('[data-plan-note]'),
  };
  for (const [name, el] of Object.entries(controls)) if (el) el.hidden = name !== show;
  if (label && (show === 'change' || show === 'note') && controls[show]) controls[show].textContent = label;
}

/** The confirm button while a change is under way: disabled, "Processing...". */
function setBusy(confirm: HTMLButtonElement, busy: boolean) {
  confirm.disabled = busy;
  confirm.querySelector<HTMLElement>('[data-idle]')!.hidden = busy;
  confirm.querySelector<HTMLElement>('[data-busy]')!.hidden = !busy;
}

/** The refusal's message in the panel's error box. */
function showError(errorBox: HTMLElement, message: string) {
  const box = document.createElement('p');
  box.className = 'rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800';
  box.textContent = message;
  errorBox.replaceChildren(box);
}

/** Brings the panel into view (without motion for those who asked for less) and focuses it. */
function reveal(panel: HTMLElement) {
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  panel.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'center' });
  panel.focus({ preventScroll: true });
}

/** Wires the pricing page's plan changes for a member who pays: the tiers' labels and 'Change Your Plan'. */
export function createPlanChanges(options: PlanChangesOptions): PlanChanges {
  const { root, panel, checkout } = options;
  let plan: Subscription | null = null;
  let level: AccessLevel | null = null;
  let chosen: Target | null = null;
  const confirm = panel.querySelector<HTMLButtonElement>('[data-change-confirm]')!;
  const errorBox = panel.querySelector<HTMLElement>('[data-change-error]')!;
  const done = panel.querySelector<HTMLElement>('[data-change-done]')!;
  const cards = () => [...root.querySelectorAll<HTMLElement>('[data-tier]')];

  function mark(next?: AccessLevel | null) {
    if (next !== undefined) level = next;
    for (const card of cards()) {
      showControl(card, stateOf(targetOf(card, options.interval()), level, plan));
    }
  }

  function open(target: Target) {
    if (!paying(plan)) return;
    chosen = target;
    const price = `${target.card.querySelector('[data-price]')?.textContent?.trim() ?? ''}${target.level === 'free' ? '' : `/${PER[target.interval]}`}`;
    const { summary, action } = describe(plan, target, price);
    panel.querySelector('[data-change-summary]')!.textContent = summary;
    confirm.querySelector('[data-idle]')!.textContent = action;
    confirm.hidden = false;
    errorBox.replaceChildren();
    done.textContent = '';
    checkout.hidden = true;
    panel.hidden = false;
    reveal(panel);
  }

  async function submit() {
    if (!chosen || !paying(plan)) return;
    const target = chosen;
    setBusy(confirm, true);
    errorBox.replaceChildren();
    const result = await changePlan(plan.subscriptionId, target.priceId);
    setBusy(confirm, false);
    if (!result.ok) return showError(errorBox, result.kind === 'error' && result.status && result.status < 500 ? result.message : FAILED);
    plan = result.data.subscription;
    writeStored(STORAGE_KEYS.accessLevel, result.data.accessLevel);
    level = result.data.accessLevel;
    confirm.hidden = true;
    done.textContent = outcome(result.data, target);
    mark();
  }

  confirm.addEventListener('click', () => void submit());
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-plan-change]')) {
    button.addEventListener('click', () => {
      const card = button.closest<HTMLElement>('[data-tier]');
      if (card) open(targetOf(card, options.interval()));
    });
  }

  return {
    async load() {
      const result = await fetchMySubscription();
      plan = result.ok ? result.data : null;
      mark();
    },
    mark,
    paying: () => paying(plan),
    interval: () => (paying(plan) ? intervalOf(plan) : null),
    openFor(priceId) {
      const card = cards().find((c) => c.dataset.planMonth === priceId || c.dataset.planYear === priceId);
      if (!card || !paying(plan) || plan.priceId === priceId) return false;
      open(targetOf(card, card.dataset.planYear === priceId && priceId !== card.dataset.planMonth ? 'year' : 'month'));
      return true;
    },
  };
}
