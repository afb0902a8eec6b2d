import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger.ts';
import type { LoggedChange } from './store.ts';
import { createChangePoller } from './poller.ts';

function setUp() {
  let clock = 0;
  let log: LoggedChange[] = [];
  const read = vi.fn(async () => log);
  const poller = createChangePoller(read, createLogger('silent'), { intervalMs: 1_000, staleMs: 30_000, now: () => clock });
  const heard: string[] = [];
  const resets = vi.fn();
  void poller.listen('content', (payload) => heard.push(payload), resets);
  return {
    poller,
    read,
    heard,
    resets,
    at: (ms: number) => void (clock = ms),
    logged: (...changes: LoggedChange[]) => void (log = changes),
  };
}

const change = (id: number, channel = 'content', payload = `p${id}`): LoggedChange => ({ id, channel, payload });

describe('change poller', () => {
  it('drops everything at the first read, then hands each new change of the channel over once', async () => {
    const t = setUp();
    t.logged(change(1));
    await t.poller.sync();
    expect(t.resets).toHaveBeenCalledTimes(1);
    expect(t.heard).toEqual([]);
    t.at(1_000);
    t.logged(change(1), change(2), change(3, 'profiles'));
    await t.poller.sync();
    t.at(2_000);
    t.logged(change(1), change(2), change(4));
    await t.poller.sync();
    expect(t.heard).toEqual(['p2', 'p4']);
    expect(t.resets).toHaveBeenCalledTimes(1);
  });

  it('hears a change that commits after a later one (ids out of order)', async () => {
    const t = setUp();
    await t.poller.sync();
    t.at(1_000);
    t.logged(change(6));
    await t.poller.sync();
    t.at(2_000);
    t.logged(change(5), change(6));
    await t.poller.sync();
    expect(t.heard).toEqual(['p6', 'p5']);
  });

  it('reads at most once per interval, and one read at a time', async () => {
    const t = setUp();
    await Promise.all([t.poller.sync(), t.poller.sync(), t.poller.sync()]);
    t.at(999);
    await t.poller.sync();
    expect(t.read).toHaveBeenCalledTimes(1);
    t.at(1_000);
    await t.poller.sync();
    expect(t.read).toHaveBeenCalledTimes(2);
  });

  it('drops everything after a gap longer than the staleness bound, and after a failed read', async () => {
    const t = setUp();
    await t.poller.sync();
    t.at(31_000);
    t.logged(change(9));
    await t.poller.sync();
    expect(t.resets).toHaveBeenCalledTimes(2);
    expect(t.heard).toEqual([]);
    t.read.mockRejectedValueOnce(new Error('connection lost'));
    t.at(32_000);
    await t.poller.sync();
    t.at(62_000);
    await t.poller.sync();
    expect(t.resets).toHaveBeenCalledTimes(3);
  });

  it('keeps delivering when a listener throws, and stops for one that unlistened', async () => {
    const t = setUp();
    const stop = await t.poller.listen('content', () => {
      throw new Error('broken listener');
    });
    await t.poller.sync();
    t.at(1_000);
    t.logged(change(1));
    await t.poller.sync();
    await stop();
    t.at(2_000);
    t.logged(change(1), change(2));
    await t.poller.sync();
    expect(t.heard).toEqual(['p1', 'p2']);
  });
});
