/**
 * Toast notifications without a framework, so pages without islands stay light. A toast is a
 * title and a description; 'destructive' toasts go to an assertive live region, others to a polite
 * one. The regions are created once (call `ensureToastRegion()` early) so screen readers already
 * watch them when the first toast arrives; they are plain aria-live containers rather than
 * role=alert/status, so an empty region never reads as an alert on the page.
 * Toasts pause while hovered or focused and can be closed.
 */
export interface ToastOptions {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  /** Milliseconds before it hides; default 5000. */
  duration?: number;
  /** A toast with the same key replaces this one instead of piling on it (one form's messages). */
  key?: string;
}

const REGION_ID = 'toast-region';

type Politeness = 'polite' | 'assertive';

function liveRegion(politeness: Politeness): HTMLElement {
  const root = ensureToastRegion();
  // Everything outside an open modal dialog is inert and painted below it, so toasts raised while
  // one is open go inside it.
  const host = document.querySelector('dialog:modal') ?? document.body;
  if (root.parentElement !== host) host.append(root);
  return root.querySelector<HTMLElement>(`[aria-live="${politeness}"]`)!;
}

/** Creates the fixed toast container and its two live regions if they are not there yet. */
export function ensureToastRegion(): HTMLElement {
  let root = document.getElementById(REGION_ID);
  if (root) return root;
  root = document.createElement('div');
  root.id = REGION_ID;
  root.className = 'pointer-events-none fixed bottom-4 right-4 z-[100] flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2';
  for (const live of ['polite', 'assertive'] as const) {
    const region = document.createElement('div');
    region.setAttribute('aria-live', live);
    region.className = 'flex flex-col gap-2';
    root.append(region);
  }
  document.body.append(root);
  return root;
}

function closeButton(onClose: () => void, destructive: boolean): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('aria-label', 'Dismiss notification');
  button.className = `absolute right-2 top-2 grid h-7 w-7 place-items-center rounded-md ${destructive ? 'hover:bg-red-700' : 'hover:bg-slate-100'}`;
  button.innerHTML =
    '<svg aria-hidden="true" viewBox="0 0 24 24" class="h-4 w-4" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><path d="M6 6l12 12M18 6 6 18"/></svg>';
  button.addEventListener('click', onClose);
  return button;
}

/** Shows a toast and returns a function that dismisses it. */
export function toast({ title, description, variant = 'default', duration = 5000, key }: ToastOptions): () => void {
  const destructive = variant === 'destructive';
  const item = document.createElement('div');
  item.dataset.toast = variant;
  if (key) {
    for (const old of document.querySelectorAll<HTMLElement>('#toast-region [data-toast-key]')) {
      if (old.dataset.toastKey === key) old.remove();
    }
    item.dataset.toastKey = key;
  }
  item.className =
    'pointer-events-auto relative rounded-xl border p-4 pr-10 shadow-lg ' +
    (destructive ? 'border-red-800 bg-red-700 text-white' : 'border-slate-200 bg-white text-slate-900');
  const heading = document.createElement('p');
  heading.className = 'text-sm font-semibold';
  heading.textContent = title;
  item.append(heading);
  if (description) {
    const text = document.createElement('p');
    text.className = 'mt-1 text-sm';
    text.textContent = description;
    item.append(text);
  }

  let timer: number | undefined;
  const dismiss = () => {
    window.clearTimeout(timer);
    item.remove();
  };
  const schedule = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(dismiss, duration);
  };
  item.append(closeButton(dismiss, destructive));
  // Reading time is not the same for everyone: hovering or focusing a toast keeps it.
  item.addEventListener('pointerenter', () => window.clearTimeout(timer));
  item.addEventListener('pointerleave', schedule);
  item.addEventListener('focusin', () => window.clearTimeout(timer));
  item.addEventListener('focusout', schedule);

  liveRegion(destructive ? 'assertive' : 'polite').append(item);
  schedule();
  return dismiss;
}
