/**
 * Toast notifications without a framework, so pages without islands stay light. A toast is a
 * title and a description; 'destructive' toasts announce assertively. The first call creates the
 * region (role=status / role=alert live regions at the bottom right).
 */
export interface ToastOptions {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  /** Milliseconds before it hides; default 5000. */
  duration?: number;
}

function region(): HTMLElement {
  let el = document.getElementById('toast-region');
  if (!el) {
    el = document.createElement('div');
    el.id = 'toast-region';
    el.className = 'pointer-events-none fixed bottom-4 right-4 z-[100] flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2';
    document.body.append(el);
  }
  return el;
}

/** Shows a toast and returns a function that dismisses it. */
export function toast({ title, description, variant = 'default', duration = 5000 }: ToastOptions): () => void {
  const item = document.createElement('div');
  item.setAttribute('role', variant === 'destructive' ? 'alert' : 'status');
  item.dataset.toast = variant;
  item.className =
    'pointer-events-auto rounded-xl border p-4 shadow-lg ' +
    (variant === 'destructive' ? 'border-red-700 bg-red-600 text-white' : 'border-slate-200 bg-white text-slate-900');
  const heading = document.createElement('p');
  heading.className = 'text-sm font-semibold';
  heading.textContent = title;
  item.append(heading);
  if (description) {
    const text = document.createElement('p');
    text.className = 'mt-1 text-sm opacity-90';
    text.textContent = description;
    item.append(text);
  }
  region().append(item);
  const dismiss = () => item.remove();
  window.setTimeout(dismiss, duration);
  return dismiss;
}
