/**
 * Outbound webhooks' settings: no variable of their own. Where a webhook may go follows the
 * deployment: on the embedded defaults (one machine, local development, tests) loopback and private
 * targets and plain http are allowed; anywhere else only https to public addresses (targets.ts).
 */
import { defineSettings } from '../platform/config/settings.ts';

export const webhookSettings = defineSettings({}, (_env, { embeddedDefaults }) => ({
  /** Loopback, private addresses and plain http allowed as webhook targets. */
  localTargets: embeddedDefaults,
}));
