/**
 * Pricing page behaviour: the billing toggle swaps the prebuilt monthly/yearly texts, choosing a
 * paid tier opens 'Complete Your Subscription', and the signed-in member's tier shows 'Current Plan'.
 * The panel's button starts checkout (spec point 4: idle → 'Processing...' with the button disabled →
 * the provider's page; on failure back to idle with the error above the button). Visitors who are
 * not signed in go through /signin first, which brings them back here with ?plan=, and the panel
 * reopens. Vanilla, reading the stored session without supabase-js, so the page ships no framework.
 */
import { ACCESS_LEVELS, type AccessLevel } from '#shared/access.ts';
import { fetchViewer, storedSession } from '../../lib/browser/api.ts';
import { CHECKOUT_FAILED, goToCheckout } from '../../lib/browser/payments/checkout.ts';
import { startPlanCheckout } from '../../lib/browser/payments/client.ts';
import { readStored, STORAGE_KEYS, writeStored } from '../../lib/browser/storage-keys.ts';
import { createPlanChanges, type PlanChanges } from './plan-change.ts';
import { showOffer, showTrials, type PricingOffer } from './pricing-offer.ts';

type Interval = 'month' | 'year';

let interval: Interval = 'month';
let chosen: HTMLButtonElement | null = null;
/** The member's plan and the changes it allows (plan-change.ts). */
let plans: PlanChanges | undefined;
/** The sign-up offer the address named (`?offer=`), once read. */
let offer: PricingOffer | undefined;
/** Marks the plans with a free trial for the interval shown (set once the trials are read). */
let markTrials: (() => void) | undefined;
/** Shows an interval unless the visitor already chose one (set by initPricing). */
let showInterval: ((wanted: Interval) => void) | undefined;

function swapTexts(root: HTMLElement): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-month][data-year]')) {
    el.textContent = (interval === 'year' ? el.dataset.year : el.dataset.month) ?? '';
  }
}

function planId(button: HTMLButtonElement): string {
  return (interval === 'year' ? button.dataset.yearId : button.dataset.monthId) ?? '';
}

function fillPanel(panel: HTMLElement): void {
  if (!chosen) return;
  const card = chosen.closest('article');
  const price = card?.querySelector('[data-price]')?.textContent?.trim() ?? '';
  const per = card?.querySelector('[data-interval]')?.textContent?.trim() ?? '';
  for (const el of panel.querySelectorAll('[data-plan-name]')) el.textContent = chosen.dataset.name ?? '';
  for (const el of panel.querySelectorAll('[data-plan-price]')) el.textContent = `${price}${per}`;
  panel.dataset.plan = planId(chosen);
  panel.dataset.level = chosen.dataset.level ?? '';
  panel.dataset.name = chosen.dataset.name ?? '';
}

const isLevel = (value: unknown): value is AccessLevel => (ACCESS_LEVELS as readonly unknown[]).includes(value);

/**
 * Shows 'Current Plan' (disabled) in place of the action on the member's own tier, or on none; a
 * member who pays sees Upgrade or Switch at renewal on the others (plan-change.ts).
 */
function markCurrentPlan(_root: HTMLElement, level: AccessLevel | null): void {
  plans?.mark(level);
}

/** Once the member's plan is known: a plan chosen on the way here (sign-in, a refused checkout) becomes a change. */
async function loadPlan(panel: HTMLElement): Promise<void> {
  await plans?.load();
  if (!plans?.paying()) return;
  // The member's own plan shows as 'Current Plan': a yearly plan opens the page on Yearly.
  if (panel.hidden) return showInterval?.(plans.interval() ?? 'month');
  if (!plans.openFor(panel.dataset.plan ?? '')) panel.hidden = true;
}

/** The member's tier: at once from the level the auth client mirrored, then as the server says. */
function showMembership(root: HTMLElement, panel: HTMLElement): void {
  const signedIn = Boolean(storedSession());
  const note = panel.querySelector<HTMLElement>('[data-signed-out-note]');
  if (note) note.hidden = signedIn;
  if (!signedIn) return;
  // A member already has an account: /signup would only send them home.
  for (const link of root.querySelectorAll<HTMLAnchorElement>('[data-get-started]')) link.href = '/account';
  const mirrored = readStored(STORAGE_KEYS.accessLevel);
  if (isLevel(mirrored)) markCurrentPlan(root, mirrored);
  void fetchViewer().then((result) => {
    const level = result.ok ? result.data.viewer?.accessLevel : undefined;
    if (isLevel(level)) {
      writeStored(STORAGE_KEYS.accessLevel, level);
      markCurrentPlan(root, level);
      void loadPlan(panel);
    } else if (!result.ok && result.kind === 'signed-out') {
      markCurrentPlan(root, null);
      if (note) note.hidden = false;
    }
  });
}

function signInFirst(panel: HTMLElement): void {
  const code = offer ? `&offer=${encodeURIComponent(offer.code)}` : '';
  const back = `/pricing?plan=${encodeURIComponent(panel.dataset.plan ?? '')}${code}`;
  window.location.assign(`/signin?redirect=${encodeURIComponent(back)}`);
}

/** The red box above the button: the spec's text, and the server's reason when it helps (already subscribed). */
function showError(box: HTMLElement, detail?: string): void {
  const wrapper = document.createElement('div');
  wrapper.className = 'rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800';
  const main = document.createElement('p');
  main.className = 'font-semibold';
  main.textContent = CHECKOUT_FAILED;
  wrapper.append(main);
  if (detail) {
    const more = document.createElement('p');
    more.className = 'mt-1';
    more.textContent = `${detail} `;
    const link = document.createElement('a');
    link.href = '/account';
    link.className = 'font-semibold underline';
    link.textContent = 'Go to your account';
    more.append(link);
    wrapper.append(more);
  }
  box.replaceChildren(wrapper);
}

function setBusy(button: HTMLButtonElement, busy: boolean): void {
  button.disabled = busy;
  button.querySelector<HTMLElement>('[data-idle]')!.hidden = busy;
  button.querySelector<HTMLElement>('[data-busy]')!.hidden = !busy;
}

function wireCheckout(panel: HTMLElement): void {
  const button = panel.querySelector<HTMLButtonElement>('[data-checkout]');
  const errorBox = panel.querySelector<HTMLElement>('[data-checkout-error]');
  if (!button || !errorBox) return;
  // Back from the provider's page through the browser's history: the page may come back as it was left.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) setBusy(button, false);
  });
  const checkout = async () => {
    if (!storedSession()) return signInFirst(panel);
    setBusy(button, true);
    errorBox.replaceChildren();
    const level = panel.dataset.level;
    const priceId = panel.dataset.plan ?? '';
    const result = await startPlanCheckout({
      priceId,
      accessLevel: isLevel(level) ? level : 'free',
      productName: panel.dataset.name ?? '',
      offerCode: offer?.covers(priceId) ? offer.code : undefined,
    });
    if (result.ok) {
      // Stays 'Processing...' while the page changes; back to idle if an embedded checkout is closed.
      const outcome = await goToCheckout(result.data).catch(() => 'failed' as const);
      if (outcome === 'left') return;
      setBusy(button, false);
      if (outcome === 'failed') showError(errorBox, undefined);
      return;
    }
    if (result.kind === 'signed-out') return signInFirst(panel);
    // Refused because the member pays already: their plan changes instead (never a dead end).
    if (result.kind === 'error' && result.status === 409) await loadPlan(panel);
    setBusy(button, false);
    if (panel.hidden) return;
    showError(errorBox, result.kind === 'error' && result.status === 409 ? result.message : undefined);
  };
  button.addEventListener('click', () => void checkout());
}

export function initPricing(): void {
  const root = document.querySelector<HTMLElement>('[data-pricing]');
  const panel = document.getElementById('checkout-panel');
  const changePanel = document.getElementById('change-panel');
  if (!root || !panel || !changePanel) return;
  plans = createPlanChanges({ root, panel: changePanel, checkout: panel, interval: () => interval });

  const radios = root.querySelectorAll<HTMLInputElement>('input[name="billing"]');
  const sync = () => {
    interval = [...radios].find((r) => r.checked)?.value === 'year' ? 'year' : 'month';
    swapTexts(root);
    fillPanel(panel);
    plans?.mark();
    markTrials?.();
  };
  let chose = false;
  for (const radio of radios)
    radio.addEventListener('change', () => {
      chose = true;
      sync();
    });
  sync(); // a restored page may come back with Yearly checked
  showInterval = (wanted) => {
    const radio = [...radios].find((r) => r.value === wanted);
    if (chose || !radio || radio.checked) return;
    radio.checked = true;
    sync();
  };

  const errorBox = panel.querySelector<HTMLElement>('[data-checkout-error]');
  const open = (button: HTMLButtonElement) => {
    chosen = button;
    fillPanel(panel);
    errorBox?.replaceChildren();
    changePanel.hidden = true;
    panel.hidden = false;
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    panel.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'center' });
    panel.focus({ preventScroll: true });
  };
  const buttons = [...root.querySelectorAll<HTMLButtonElement>('[data-subscribe]')];
  for (const button of buttons) button.addEventListener('click', () => open(button));

  const query = new URLSearchParams(window.location.search);
  const canceled = root.querySelector<HTMLElement>('[data-canceled]');
  if (canceled) canceled.hidden = query.get('canceled') !== 'true';

  // Back from signing in (?plan=<tier id>): the chosen plan's panel opens again, with its interval.
  const plan = query.get('plan');
  const returning = plan ? buttons.find((b) => b.dataset.monthId === plan || b.dataset.yearId === plan) : undefined;
  if (returning) {
    const wanted = returning.dataset.yearId === plan ? 'year' : 'month';
    const radio = [...radios].find((r) => r.value === wanted);
    if (radio && !radio.checked) {
      radio.checked = true;
      sync();
    }
    open(returning);
  }

  showMembership(root, panel);
  wireCheckout(panel);
  // An offer in the address shows its prices (the open panel takes them too); then the plans' trials.
  void showOffer(root, () => {
    swapTexts(root);
    fillPanel(panel);
  }).then(async (shown) => {
    offer = shown;
    markTrials = await showTrials(root, shown, () => interval);
  });
}
