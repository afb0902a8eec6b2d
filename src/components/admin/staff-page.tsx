/**
 * What the staff pages (/admin, /create) share: the role gate (a spinner while the session loads;
 * visitors and the wrong roles sent on with replace) and the underlined tab list.
 */
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { Role } from '#shared/access.ts';
import { $auth, authClient } from '../../lib/browser/auth/client.ts';

/** True once the signed-in caller has one of `roles`; until then the page shows `<PageSpinner />`. */
export function useRoleGate(roles: readonly Role[], { signedOut, wrongRole }: { signedOut: string; wrongRole: string }): boolean {
  const auth = useStore($auth);
  const role = auth.status === 'signed-in' ? auth.profile?.role : undefined;
  useEffect(() => {
    authClient();
  }, []);
  useEffect(() => {
    if (auth.status === 'signed-out') window.location.replace(signedOut);
    else if (role && !roles.includes(role)) window.location.replace(wrongRole);
  }, [auth.status, role, roles, signedOut, wrongRole]);
  return role !== undefined && roles.includes(role);
}

export function PageSpinner() {
  return (
    <div className="flex justify-center py-24" role="status">
      <span className="h-8 w-8 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600" />
      <span className="sr-only">Loading…</span>
    </div>
  );
}

export function TabList<T extends string>({
  label,
  tabs,
  current,
  onSelect,
  idPrefix,
}: {
  label: string;
  tabs: readonly { id: T; label: string }[];
  current: T;
  onSelect: (id: T) => void;
  idPrefix: string;
}) {
  return (
    <div role="tablist" aria-label={label} className="flex flex-wrap gap-2 border-b border-slate-200">
      {tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          id={`${idPrefix}-${t.id}`}
          aria-selected={current === t.id}
          aria-controls={`${idPrefix}-panel`}
          onClick={() => onSelect(t.id)}
          className={`-mb-px border-b-2 px-3 py-2 text-sm font-semibold ${current === t.id ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
