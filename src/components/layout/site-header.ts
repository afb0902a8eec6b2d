/**
 * Behaviour of the top navigation (spec point 2, timings from point 9), without a framework:
 * - the bar turns opaque past 20px of scroll (data-scrolled);
 * - the desktop Services dropdown is a disclosure: click, arrow keys, Escape returns focus;
 * - the mobile menu moves open → closing (300 ms) → closed; it closes on an outside click, on
 *   Escape (focus back to the button), 150 ms after a link is chosen, when focus leaves the
 *   header, and on route changes (a back/forward restore or a hash change).
 */
import { withReturn } from '#shared/auth/return-to.ts';
import { AUTH_PUBLIC_KEY, AUTH_ENDPOINT } from '../../lib/browser/auth/endpoint.ts';
import { showFlash } from '../../lib/browser/flash.ts';
import { onSessionChange, storedSession } from '../../lib/browser/session.ts';
import { removeStored, STORAGE_KEYS } from '../../lib/browser/storage-keys.ts';

const SCROLL_THRESHOLD = 20;
const CLOSE_DURATION_MS = 300;
const LINK_CLOSE_DELAY_MS = 150;
const DESKTOP_QUERY = '(min-width: 768px)';

type MenuState = 'open' | 'closing' | 'closed';

function byId<T extends HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

function setExpanded(button: HTMLElement, target: HTMLElement, open: boolean): void {
  button.setAttribute('aria-expanded', String(open));
  target.hidden = !open;
}

/** The desktop Services dropdown. */
function initDropdown(header: HTMLElement): void {
  const button = byId<HTMLButtonElement>('services-button');
  const menu = byId('services-menu');
  const container = button?.closest<HTMLElement>('[data-dropdown]');
  if (!button || !menu || !container) return;
  const items = () => [...menu.querySelectorAll<HTMLAnchorElement>('a')];
  const isOpen = () => button.getAttribute('aria-expanded') === 'true';
  const close = (returnFocus = false) => {
    if (!isOpen()) return;
    setExpanded(button, menu, false);
    if (returnFocus) button.focus();
  };
  const openAndFocus = (index: number) => {
    setExpanded(button, menu, true);
    const list = items();
    list.at(index)?.focus();
  };

  button.addEventListener('click', () => setExpanded(button, menu, !isOpen()));
  button.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown') openAndFocus(0);
    else if (e.key === 'ArrowUp') openAndFocus(-1);
    else return;
    e.preventDefault();
  });
  menu.addEventListener('keydown', (e) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLAnchorElement);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: list.length - 1 };
    if (!Object.hasOwn(moves, e.key)) return;
    e.preventDefault();
    list[(moves[e.key]! + list.length) % list.length]?.focus();
  });
  container.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && isOpen()) {
      e.stopPropagation();
      close(true);
    }
  });
  container.addEventListener('focusout', (e) => {
    const next = e.relatedTarget as Node | null;
    if (next && !container.contains(next)) close();
  });
  document.addEventListener('click', (e) => {
    if (!container.contains(e.target as Node)) close();
  });
  header.addEventListener('click', (e) => {
    if ((e.target as Element).closest('#services-menu a')) close();
  });
}

/** The slide-down menu under 768px. */
function initMobileMenu(header: HTMLElement): void {
  const button = byId<HTMLButtonElement>('menu-button');
  const panel = byId('mobile-menu');
  if (!button || !panel) return;
  let timer: number | undefined;
  const state = () => panel.dataset.state as MenuState;
  const setState = (next: MenuState) => {
    panel.dataset.state = next;
    button.setAttribute('aria-expanded', String(next === 'open'));
  };

  const open = () => {
    window.clearTimeout(timer);
    panel.hidden = false;
    void panel.offsetHeight; // start the slide from the closed look
    setState('open');
  };
  const closeNow = () => {
    window.clearTimeout(timer);
    setState('closed');
    panel.hidden = true;
  };
  const close = (returnFocus = false) => {
    if (state() !== 'open') return;
    setState('closing');
    timer = window.setTimeout(closeNow, CLOSE_DURATION_MS);
    if (returnFocus) button.focus();
  };

  button.addEventListener('click', () => (state() === 'open' ? close() : open()));
  panel.addEventListener('click', (e) => {
    if (!(e.target as Element).closest('a')) return;
    window.clearTimeout(timer);
    timer = window.setTimeout(() => close(), LINK_CLOSE_DELAY_MS);
  });
  document.addEventListener('click', (e) => {
    if (!header.contains(e.target as Node)) close();
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && state() === 'open') close(true);
  });
  header.addEventListener('focusout', (e) => {
    const next = e.relatedTarget as Node | null;
    if (next && !header.contains(next)) close();
  });
  window.addEventListener('hashchange', () => close());
  window.addEventListener('pageshow', (e) => e.persisted && closeNow());
  window.matchMedia(DESKTOP_QUERY).addEventListener('change', (e) => e.matches && closeNow());

  const servicesButton = byId<HTMLButtonElement>('mobile-services-button');
  const servicesList = byId('mobile-services');
  servicesButton?.addEventListener('click', () => {
    if (servicesList) setExpanded(servicesButton, servicesList, servicesList.hidden !== false);
  });
}

/** Whether a key press belongs to something the reader is typing in. */
function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/**
 * The site search: the button (a link to /search without JavaScript) opens the field under the bar,
 * and so does `/` anywhere but in a field (on /search it goes to the page's own field); Escape, a
 * click elsewhere or focus leaving the header closes it.
 */
function initSearch(header: HTMLElement): void {
  const button = byId<HTMLAnchorElement>('search-button');
  const panel = byId('header-search');
  const field = byId<HTMLInputElement>('header-search-q');
  if (!button || !panel || !field) return;
  const pageField = () =>
    window.location.pathname === '/search' ? document.querySelector<HTMLInputElement>('main input[name="q"]') : null;
  const open = () => {
    const own = pageField();
    if (own) return own.focus();
    setExpanded(button, panel, true);
    field.focus();
  };
  const close = (returnFocus = false) => {
    if (panel.hidden) return;
    setExpanded(button, panel, false);
    if (returnFocus) button.focus();
  };
  button.addEventListener('click', (e) => {
    e.preventDefault();
    if (panel.hidden) open();
    else close(true);
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !panel.hidden) return close(true);
    if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || typing(e.target)) return;
    e.preventDefault();
    open();
  });
  document.addEventListener('click', (e) => {
    if (!header.contains(e.target as Node)) close();
  });
  header.addEventListener('focusout', (e) => {
    const next = e.relatedTarget as Node | null;
    if (next && !panel.contains(next) && next !== button) close();
  });
}

function initScroll(header: HTMLElement): void {
  let frame = 0;
  const update = () => {
    frame = 0;
    header.dataset.scrolled = String(window.scrollY > SCROLL_THRESHOLD);
  };
  update();
  window.addEventListener('scroll', () => (frame ||= requestAnimationFrame(update)), { passive: true });
}

/**
 * Signed-in state in the header, without a framework: "Sign In" becomes "Account" and a Sign Out
 * button appears. It follows the stored session: at once when this tab signs in or out (the auth
 * client announces each change, so a preview's "view as" shows here too) or another tab does.
 */
function initAccount(header: HTMLElement): void {
  const links = [...header.querySelectorAll<HTMLAnchorElement>('[data-account-link]')];
  const buttons = [...header.querySelectorAll<HTMLButtonElement>('[data-sign-out]')];
  const signIn = signInHref();
  const show = () => {
    const signedIn = storedSession() !== null;
    for (const link of links) {
      link.href = signedIn ? '/account' : signIn;
      link.textContent = signedIn ? 'Account' : 'Sign In';
    }
    for (const button of buttons) button.hidden = !signedIn;
  };
  for (const button of buttons) button.addEventListener('click', signOut);
  show();
  onSessionChange(show);
}

/**
 * Ends the session signed in now at the auth service (ignoring 401/403/404, as the client does) and
 * forgets it and the mirrored access level.
 */
function signOut(): void {
  const session = storedSession();
  const forget = () => {
    if (session) removeStored(session.key);
    removeStored(STORAGE_KEYS.accessLevel);
    window.location.assign('/');
  };
  if (!session) return forget();
  void fetch(`${AUTH_ENDPOINT || window.location.origin}/auth/v1/logout?scope=local`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.accessToken}`, apikey: AUTH_PUBLIC_KEY },
  })
    .catch(() => undefined)
    .finally(forget);
}

/** Where "Sign In" goes: back to this page afterwards (not from home or the account pages themselves). */
function signInHref(): string {
  const { pathname, search } = window.location;
  if (pathname === '/' || /^\/(?:signin|signup|forgot-password|reset-password)\/?$/.test(pathname)) return '/signin';
  return withReturn('/signin', `${pathname}${search}`);
}

export function initSiteHeader(): void {
  const header = byId('site-header');
  if (!header) return;
  initScroll(header);
  initDropdown(header);
  initMobileMenu(header);
  initAccount(header);
  initSearch(header);
  // The message a previous page left for this one ('Email confirmed', 'Password updated'...).
  showFlash();
}
