import { useSyncExternalStore } from 'react';

export type Store<T> = {
  get: () => T;
  set: (value: T) => void;
  subscribe: (listener: () => void) => () => void;
};

/** Every key this app writes to localStorage starts with this. */
const KEY_PREFIX = 'paydesk.';
/** Whose selections the stored ones are: a different user signing in starts from none. */
const OWNER_KEY = `${KEY_PREFIX}owner`;
/** Every store, so that signing out resets them all (per-user choices: merchant, terminal, …). */
const stores = new Set<{ reset: () => void }>();

/**
 * A tiny observable value; with a storage key (prefixed `paydesk.`) it is remembered in localStorage across
 * reloads and tabs, for the signed-in user only (see clearUserSelections).
 */
export function createStore<T>(initial: T, storageKey?: string): Store<T> {
  if (storageKey && !storageKey.startsWith(KEY_PREFIX)) throw new Error(`Storage keys start with ${KEY_PREFIX}`);
  const read = (): T => {
    if (!storageKey) return initial;
    try {
      const raw = localStorage.getItem(storageKey);
      return raw === null ? initial : (JSON.parse(raw) as T);
    } catch {
      return initial;
    }
  };
  let value = read();
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((l) => l());

  if (storageKey && typeof window !== 'undefined') {
    window.addEventListener('storage', (e) => {
      if (e.key === storageKey) {
        value = read();
        emit();
      }
    });
  }

  stores.add({
    reset: () => {
      value = initial;
      emit();
    },
  });

  return {
    get: () => value,
    set: (next) => {
      if (Object.is(next, value)) return;
      value = next;
      if (storageKey) {
        try {
          localStorage.setItem(storageKey, JSON.stringify(next));
        } catch {
          /* storage full or disabled: keep the value for this tab only */
        }
      }
      emit();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/**
 * Sign-out (or a lost session): every per-user selection goes, from this tab and from localStorage, so that the
 * next user's first calls never name the last one's merchant or terminal.
 */
export function clearUserSelections() {
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith(KEY_PREFIX)) localStorage.removeItem(key);
  } catch {
    /* storage disabled: nothing was kept */
  }
  for (const s of stores) s.reset();
}

/** A user is signed in: the stored selections are theirs, or, if another user's, cleared first. */
export function claimUserSelections(userId: string) {
  let owner: string | null = null;
  try {
    owner = localStorage.getItem(OWNER_KEY);
  } catch {
    return;
  }
  if (owner === userId) return;
  clearUserSelections();
  try {
    localStorage.setItem(OWNER_KEY, userId);
  } catch {
    /* storage full or disabled */
  }
}
