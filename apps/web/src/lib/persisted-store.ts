import { useSyncExternalStore } from 'react';

export type Store<T> = {
  get: () => T;
  set: (value: T) => void;
  subscribe: (listener: () => void) => () => void;
};

/** A tiny observable value; with a storage key it is remembered in localStorage across reloads and tabs. */
export function createStore<T>(initial: T, storageKey?: string): Store<T> {
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
