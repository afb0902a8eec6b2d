/**
 * The provider's events, verified (by the webhook route, or handed over by the embedded provider):
 * only ids are read from them; state is re-read from the provider, so duplicates and out-of-order
 * delivery end right. One function per kind of event: a completed checkout, a subscription change.
 */
import type { AccessLevel } from '#shared/access.ts';
import type { Checkout } from './checkout.ts';
import type { ProviderEvent } from './provider.ts';

/** Subscription ids an event is about (invoices name theirs under parent.subscription_details). */
export function subscriptionOf(event: ProviderEvent): string | undefined {
  const o = event.data.object;
  if (event.type.startsWith('customer.subscription.')) return typeof o.id === 'string' ? o.id : undefined;
  // A schedule (a change at the period end, made here or in Stripe's portal) names its subscription; a released one under released_subscription.
  if (event.type.startsWith('subscription_schedule.')) {
    const id = o.subscription ?? o.released_subscription;
    return typeof id === 'string' ? id : undefined;
  }
  const parent = o.parent as { subscription_details?: { subscription?: unknown } } | undefined;
  const id = parent?.subscription_details?.subscription ?? o.subscription;
  return typeof id === 'string' ? id : undefined;
}

const changesSubscription = (type: string) =>
  type.startsWith('customer.subscription.') ||
  type.startsWith('subscription_schedule.') ||
  type === 'invoice.paid' ||
  type === 'invoice.payment_failed';

export function createEventHandler({
  applyCheckout,
  sync,
}: {
  applyCheckout: Checkout['applyCheckout'];
  sync: (subscriptionId: string) => Promise<AccessLevel | undefined>;
}) {
  /** One verified provider event; false when it changed nothing. */
  return async function handleEvent(event: ProviderEvent): Promise<boolean> {
    if (event.type === 'checkout.session.completed') {
      const id = event.data.object.id;
      if (typeof id !== 'string') return false;
      return (await applyCheckout(id)).paid;
    }
    if (changesSubscription(event.type)) {
      const id = subscriptionOf(event);
      return id ? (await sync(id)) !== undefined : false;
    }
    return false; // anything else: acknowledged, ignored
  };
}
