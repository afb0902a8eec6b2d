/**
 * The Integrations tab (issue 35): what other tools connect with, API keys to call the admin API and
 * outbound webhooks to be told of changes, one section each (a tab of its own each would wrap the
 * tab bar).
 */
import { useId } from 'react';
import { ApiKeysPanel } from './ApiKeysPanel.tsx';
import { WebhooksPanel } from './WebhooksPanel.tsx';

export function IntegrationsPanel() {
  const ids = useId();
  return (
    <div className="space-y-12">
      <section aria-labelledby={`${ids}-keys`} className="space-y-4">
        <h2 id={`${ids}-keys`} className="text-xl font-bold text-slate-900">
          API keys
        </h2>
        <ApiKeysPanel />
      </section>
      <section aria-labelledby={`${ids}-hooks`} className="space-y-4">
        <h2 id={`${ids}-hooks`} className="text-xl font-bold text-slate-900">
          Webhooks
        </h2>
        <WebhooksPanel />
      </section>
    </div>
  );
}
