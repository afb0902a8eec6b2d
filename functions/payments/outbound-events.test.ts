/** Which subscription events one sync's change makes, judged from our copy before and after it. */
import { describe, expect, it } from 'vitest';
import type { WebhookEmitter } from '../outbound/port.ts';
import type { ProfileRow } from '../users/tables.ts';
import { subscriptionEvents } from './outbound-events.ts';
import type { SubscriptionRow } from './tables.ts';

const DAY = 86_400_000;
const now = new Date('2031-05-10T12:00:00Z');
const owner = { id: 'u1', email: 'sam@example.com', name: 'Sam', accessLevel: 'premium', role: 'member' } as ProfileRow;
const copy = (over: Partial<SubscriptionRow>) =>
  ({
    id: 'sub_1',
    status: 'active',
    tierId: 'price_premium_monthly',
    accessLevel: 'premium',
    amount: 1999,
    interval: 'month',
    cancelAtPeriodEnd: false,
    cancelAt: null,
    currentPeriodEnd: new Date(now.getTime() + 20 * DAY),
    endedAt: null,
    trialEnd: null,
    updatedAt: new Date(now.getTime() - 5 * DAY),
    ...over,
  }) as SubscriptionRow;

async function events(before: SubscriptionRow | undefined, row: SubscriptionRow) {
  const types: string[] = [];
  const webhooks: WebhookEmitter = { emit: async (_tx, type) => void types.push(type), emitMany: async () => undefined };
  await subscriptionEvents(webhooks, {} as never, { owner, before, row, now });
  return types;
}

describe('subscription events', () => {
  it('ends a subscription whose cancel_at passed after our copy was written (the portal’s flexible cancel)', async () => {
    const before = copy({ cancelAt: new Date(now.getTime() - DAY) });
    expect(await events(before, copy({ status: 'canceled', endedAt: now, cancelAt: before.cancelAt, updatedAt: now }))).toEqual([
      'subscription.ended',
    ]);
  });

  it('starts, schedules a cancellation, resumes and changes from the copies', async () => {
    expect(await events(undefined, copy({ updatedAt: now }))).toEqual(['subscription.started']);
    expect(await events(copy({}), copy({ cancelAtPeriodEnd: true, updatedAt: now }))).toEqual(['subscription.cancel_scheduled']);
    expect(await events(copy({ cancelAtPeriodEnd: true }), copy({ updatedAt: now }))).toEqual(['subscription.resumed']);
    expect(await events(copy({}), copy({ amount: 2999, updatedAt: now }))).toEqual(['subscription.changed']);
    expect(await events(copy({ status: 'canceled', endedAt: now }), copy({ status: 'canceled', endedAt: now, updatedAt: now }))).toEqual(
      [],
    );
  });
});
