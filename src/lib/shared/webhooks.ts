/**
 * Outbound webhooks' event names (issue 35, item 5): what an admin subscribes an endpoint to, what
 * the server emits, and what the admin dashboard's checkboxes list. Pure, shared by both sides.
 */

/** Every event an endpoint can subscribe to, as the Standard Webhooks body's `type` names it. */
export const WEBHOOK_EVENTS = [
  'member.created',
  'member.updated',
  'member.deleted',
  'subscription.started',
  'subscription.changed',
  'subscription.cancel_scheduled',
  'subscription.resumed',
  'subscription.ended',
  'purchase.completed',
  'grant.started',
  'grant.ended',
  'newsletter.sent',
  'event.registered',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The test event an admin sends to one endpoint from the dashboard (never subscribed to). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** What each event means, in the dashboard's words. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'member.created': 'A member signed up',
  'member.updated': 'A member’s name, email, level or role changed',
  'member.deleted': 'A member deleted their account',
  'subscription.started': 'A subscription started (or a trial)',
  'subscription.changed': 'A subscription moved to another plan',
  'subscription.cancel_scheduled': 'A cancellation was scheduled',
  'subscription.resumed': 'A scheduled cancellation was undone',
  'subscription.ended': 'A subscription ended',
  'purchase.completed': 'A one-time purchase was paid',
  'grant.started': 'A comp or a gift started',
  'grant.ended': 'A comp or a gift ended',
  'newsletter.sent': 'A newsletter issue was sent',
  'event.registered': 'A member registered for an event',
};

/** The most endpoints a site keeps (each event is one queued delivery per endpoint). */
export const MAX_WEBHOOK_ENDPOINTS = 20;

/** A delivery's state in the log. */
export const DELIVERY_STATUSES = ['queued', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
