/**
 * Whether the signed-in member bought an item (`GET /api/payments/purchases`), for the islands that
 * open priced items to their buyers. The list is asked once per member and page, and only when
 * `needed` (a member whose level does not already open the item); a failed read is 'unknown', and
 * the island then lets the server decide.
 */
import { useEffect, useState } from 'react';
import { fetchPurchases, type Purchase, type PurchasableType } from '../../lib/browser/payments/client.ts';
import type { ViewerState } from '../content/gated/use-viewer.ts';

export type Ownership = 'loading' | 'owned' | 'not-owned' | 'unknown';

const lists = new Map<string, Promise<Purchase[] | null>>();

function purchasesOf(userId: string): Promise<Purchase[] | null> {
  let list = lists.get(userId);
  if (!list) {
    list = fetchPurchases().then((result) => (result.ok ? result.data.purchases : null));
    lists.set(userId, list);
    void list.then((found) => {
      if (!found) lists.delete(userId); // ask again next time
    });
  }
  return list;
}

export function useOwnership(viewer: ViewerState, type: PurchasableType, slug: string, needed: boolean): Ownership {
  const userId = viewer.status === 'signed-in' ? viewer.userId : null;
  const key = `${userId}\n${type}\n${slug}`;
  const [known, setKnown] = useState<{ key: string; ownership: Ownership } | null>(null);

  useEffect(() => {
    if (!needed || !userId) return;
    let live = true;
    void purchasesOf(userId).then((list) => {
      const ownership = !list ? 'unknown' : list.some((p) => p.type === type && p.slug === slug) ? 'owned' : 'not-owned';
      if (live) setKnown({ key, ownership });
    });
    return () => {
      live = false;
    };
  }, [needed, userId, key, type, slug]);

  if (!needed || !userId) return 'not-owned';
  return known?.key === key ? known.ownership : 'loading';
}
