/**
 * Pricing page behaviour: the billing toggle swaps the prebuilt monthly/yearly texts, and choosing a
 * paid tier opens 'Complete Your Subscription'. Its button starts checkout; until the payments work
 * lands it goes to /signin, which brings the visitor back here with ?plan=, and the panel reopens.
 */
type Interval = 'month' | 'year';

let interval: Interval = 'month';
let chosen: HTMLButtonElement | null = null;

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
}

export function initPricing(): void {
  const root = document.querySelector<HTMLElement>('[data-pricing]');
  const panel = document.getElementById('checkout-panel');
  if (!root || !panel) return;

  const radios = root.querySelectorAll<HTMLInputElement>('input[name="billing"]');
  const sync = () => {
    interval = [...radios].find((r) => r.checked)?.value === 'year' ? 'year' : 'month';
    swapTexts(root);
    fillPanel(panel);
  };
  for (const radio of radios) radio.addEventListener('change', sync);
  sync(); // a restored page may come back with Yearly checked

  const open = (button: HTMLButtonElement) => {
    chosen = button;
    fillPanel(panel);
    panel.hidden = false;
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    panel.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'center' });
    panel.focus({ preventScroll: true });
  };
  const buttons = [...root.querySelectorAll<HTMLButtonElement>('[data-subscribe]')];
  for (const button of buttons) button.addEventListener('click', () => open(button));

  // Back from signing in (?plan=<tier id>): the chosen plan's panel opens again, with its interval.
  const plan = new URLSearchParams(window.location.search).get('plan');
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

  panel.querySelector('[data-checkout]')?.addEventListener('click', () => {
    const back = `/pricing?plan=${encodeURIComponent(panel.dataset.plan ?? '')}`;
    window.location.assign(`/signin?redirect=${encodeURIComponent(back)}`);
  });
}
