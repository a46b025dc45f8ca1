import { beforeEach, describe, expect, it } from 'vitest';
import { claimUserSelections, clearUserSelections, createStore } from './persisted-store';

/** localStorage as the browser has it, for the node test environment. */
class MemoryStorage {
  private m = new Map<string, string>();
  get length() {
    return this.m.size;
  }
  key = (i: number) => [...this.m.keys()][i] ?? null;
  getItem = (k: string) => this.m.get(k) ?? null;
  setItem = (k: string, v: string) => void this.m.set(k, String(v));
  removeItem = (k: string) => void this.m.delete(k);
  clear = () => this.m.clear();
}
const storage = new MemoryStorage();
// Object.keys(localStorage) lists the stored keys in a browser; a Proxy gives the same here
globalThis.localStorage = new Proxy(storage, {
  ownKeys: () => [...Array(storage.length).keys()].map((i) => storage.key(i)!),
  getOwnPropertyDescriptor: (_t, k) =>
    typeof k === 'string' && storage.getItem(k) !== null
      ? { enumerable: true, configurable: true, value: storage.getItem(k) }
      : undefined,
}) as unknown as Storage;

describe('per-user selections', () => {
  beforeEach(() => storage.clear());

  it('sign-out clears every stored selection and resets the stores; other keys stay', () => {
    const terminal = createStore('', 'paydesk.terminalId');
    const merchant = createStore<string | null>(null, 'paydesk.merchantId');
    const scoped = createStore<string | null>(null);
    claimUserSelections('user-a');
    terminal.set('t-1');
    merchant.set('m-1');
    scoped.set('m-1');
    storage.setItem('someone-else', 'x');
    expect(storage.getItem('paydesk.terminalId')).toBe('"t-1"');

    clearUserSelections();
    expect([terminal.get(), merchant.get(), scoped.get()]).toEqual(['', null, null]);
    expect(Object.keys(localStorage)).toEqual(['someone-else']);
  });

  it('the same user signing in again keeps them; a different user starts from none', () => {
    const terminal = createStore('', 'paydesk.terminalId');
    claimUserSelections('user-a');
    terminal.set('t-1');
    claimUserSelections('user-a');
    expect(terminal.get()).toBe('t-1');
    claimUserSelections('user-b');
    expect(terminal.get()).toBe('');
    expect(storage.getItem('paydesk.terminalId')).toBeNull();
    expect(storage.getItem('paydesk.owner')).toBe('user-b');
  });

  it('refuses a storage key outside the app prefix, which sign-out would miss', () => {
    expect(() => createStore('', 'terminalId')).toThrow(/paydesk\./);
  });
});
